import { isStaffRole, type Me, type Role } from '@coffer/contracts/auth';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { NotFoundContent } from '../components/not-found-content.tsx';
import { errorMessage } from '../lib/api-client.ts';
import { healthQueryOptions } from '../lib/health.ts';
import { pathAfterSignIn, signInPathFor } from '../lib/return-to.ts';
import {
  forgetUserAfterLogout,
  isAfterLogout,
  meQueryOptions,
  mustSetUpTwoFactor,
  twoFactorSetUpState,
  useMe,
} from '../lib/session.ts';
import { DeferredPublicFrame } from './deferred-public-frame.tsx';
import { NotFoundPage } from './not-found-page.tsx';

function SessionCheck({ children }: { children: (me: Me | null) => ReactNode }) {
  const me = useQuery(meQueryOptions);
  // The sandbox label tops every page: wait for the server's first answer about it too,
  // so the page does not jump down when it arrives. A failed check does not hold it up.
  const health = useQuery(healthQueryOptions);
  const isHealthUnknown = health.isPending && health.failureCount === 0;
  const { t } = useLingui();
  if (me.isPending || isHealthUnknown) {
    return (
      <Center mih="60dvh">
        <Loader aria-label={t`Loading`} />
      </Center>
    );
  }
  if (me.isError) {
    return (
      <Center mih="60dvh" px="md">
        <Stack align="center" gap="sm" role="alert">
          <Text ta="center">{errorMessage(me.error)}</Text>
          <Button variant="default" onClick={() => me.refetch()} loading={me.isFetching}>
            <Trans>Try again</Trans>
          </Button>
        </Stack>
      </Center>
    );
  }
  return children(me.data);
}

function SignInFirst() {
  const location = useLocation();
  return (
    <Navigate
      to={signInPathFor(`${location.pathname}${location.search}${location.hash}`)}
      replace
    />
  );
}

/** The page for someone whose password was set by someone else (npm run create-admin). */
const requiredPasswordChangePath = '/change-password';
/** The page of a customer who has not accepted the operator's current terms. */
const termsAcceptancePath = '/accept-terms';

/**
 * Someone who must do one thing first (change a password set by someone else, accept new
 * terms) sees only that page: the API answers them nothing else until it is done.
 */
function OnlyPageFirst({ path }: { path: string }) {
  const location = useLocation();
  return location.pathname === path ? <Outlet /> : <Navigate to={path} replace />;
}

/**
 * Pages for signed-in users. A visitor is sent to the login page, which brings them back
 * here afterwards (`?returnTo=`).
 */
export function RequireSignedIn() {
  return (
    <SessionCheck>
      {(me) =>
        !me ? (
          <SignInFirst />
        ) : me.mustChangePassword ? (
          <OnlyPageFirst path={requiredPasswordChangePath} />
        ) : me.mustAcceptTerms ? (
          <OnlyPageFirst path={termsAcceptancePath} />
        ) : (
          <Outlet />
        )
      }
    </SessionCheck>
  );
}

/**
 * Inside the signed-in frame, the pages of one role. Anyone else gets the 404 page in the
 * same frame, with their own menu: an address that is not theirs does not exist for them,
 * as the server answers for staff routes. (A redirect would hide a mistyped or shared link
 * behind a page nobody asked for.)
 */
function PagesOf({ isFor }: { isFor: (role: Role) => boolean }) {
  const me = useMe();
  return me && isFor(me.role) ? <Outlet /> : <NotFoundContent isInsideShell />;
}

/** The customer's pages (wallet, transfers, bills, statements): staff have no wallet. */
export function CustomerPagesOnly() {
  return <PagesOf isFor={(role) => role === 'customer'} />;
}

/**
 * The back office, for support and admin; a customer sees the 404 page. Staff who must
 * set up two-factor first (COFFER_STAFF_TWO_FACTOR) are sent to the set-up on their
 * profile, which brings them back here once it is on.
 */
export function StaffPagesOnly() {
  const me = useMe();
  const location = useLocation();
  if (me && isStaffRole(me.role) && mustSetUpTwoFactor(me)) {
    return (
      <Navigate
        to="/profile"
        replace
        state={twoFactorSetUpState(`${location.pathname}${location.search}${location.hash}`)}
      />
    );
  }
  return <PagesOf isFor={isStaffRole} />;
}

/**
 * An address that matches no page: the 404 page in the signed-in frame, with the person's
 * menu, for someone signed in (the route's children); in the public frame for a visitor.
 */
export function NotFoundInOwnFrame() {
  return (
    <SessionCheck>
      {(me) =>
        me ? (
          <Outlet />
        ) : (
          <DeferredPublicFrame>
            <NotFoundPage />
          </DeferredPublicFrame>
        )
      }
    </SessionCheck>
  );
}

/**
 * Pages for visitors (login, sign-up, forgot password): a signed-in user goes on in, except
 * on the login page Logout has just opened, which forgets the user once it is shown.
 */
export function RequireVisitor() {
  const location = useLocation();
  const queryClient = useQueryClient();
  const isLoginAfterLogout = isAfterLogout(location.state);
  useEffect(() => {
    if (isLoginAfterLogout) forgetUserAfterLogout(queryClient);
  }, [isLoginAfterLogout, queryClient]);
  return (
    <SessionCheck>
      {(me) =>
        me && !isLoginAfterLogout ? (
          <Navigate to={pathAfterSignIn(location, me.role)} replace />
        ) : (
          <Outlet />
        )
      }
    </SessionCheck>
  );
}
