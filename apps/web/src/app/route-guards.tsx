import { isStaffRole, type Me } from '@coffer/contracts/auth';
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../lib/api-client.ts';
import { healthQueryOptions } from '../lib/health.ts';
import { pathAfterSignIn, signInPathFor } from '../lib/return-to.ts';
import { forgetUserAfterLogout, isAfterLogout, meQueryOptions } from '../lib/session.ts';
import { DeferredPublicFrame } from './deferred-public-frame.tsx';
import { NotFoundPage } from './not-found-page.tsx';

function SessionCheck({ children }: { children: (me: Me | null) => ReactNode }) {
  const me = useQuery(meQueryOptions);
  // The sandbox label tops every page: wait for the server's first answer about it too,
  // so the page does not jump down when it arrives. A failed check does not hold it up.
  const health = useQuery(healthQueryOptions);
  const isHealthUnknown = health.isPending && health.failureCount === 0;
  if (me.isPending || isHealthUnknown) {
    return (
      <Center mih="60dvh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (me.isError) {
    return (
      <Center mih="60dvh" px="md">
        <Stack align="center" gap="sm" role="alert">
          <Text ta="center">{errorMessage(me.error)}</Text>
          <Button variant="default" onClick={() => me.refetch()} loading={me.isFetching}>
            Try again
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

/**
 * Pages for signed-in users. A visitor is sent to the login page, which brings them back
 * here afterwards (`?returnTo=`).
 */
export function RequireSignedIn() {
  return <SessionCheck>{(me) => (me ? <Outlet /> : <SignInFirst />)}</SessionCheck>;
}

/**
 * Back-office pages, for support and admin. A visitor signs in first; a customer sees the
 * same 404 page as for any unknown address, so the back office does not announce itself.
 * The server enforces the same rule on every request; this only keeps the pages honest.
 */
export function RequireStaff() {
  return (
    <SessionCheck>
      {(me) =>
        !me ? (
          <SignInFirst />
        ) : isStaffRole(me.role) ? (
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
