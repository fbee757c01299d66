import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../lib/api-client.ts';
import { pathAfterSignIn, signInPathFor } from '../lib/return-to.ts';
import { isAfterLogout, meQueryOptions } from '../lib/session.ts';

function SessionCheck({ children }: { children: (isSignedIn: boolean) => ReactNode }) {
  const me = useQuery(meQueryOptions);
  if (me.isPending) {
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
  return children(me.data !== null);
}

/**
 * Pages for signed-in users. A visitor is sent to the login page, which brings them back
 * here afterwards (`?returnTo=`). Staff use these pages too until the back office exists.
 */
export function RequireSignedIn() {
  const location = useLocation();
  return (
    <SessionCheck>
      {(isSignedIn) =>
        isSignedIn ? (
          <Outlet />
        ) : (
          <Navigate
            to={signInPathFor(`${location.pathname}${location.search}${location.hash}`)}
            replace
          />
        )
      }
    </SessionCheck>
  );
}

/**
 * Pages for visitors (login, sign-up, forgot password): a signed-in user goes on in, except
 * on the login page Logout has just opened, while the user is still being forgotten.
 */
export function RequireVisitor() {
  const location = useLocation();
  return (
    <SessionCheck>
      {(isSignedIn) =>
        isSignedIn && !isAfterLogout(location.state) ? (
          <Navigate to={pathAfterSignIn(location)} replace />
        ) : (
          <Outlet />
        )
      }
    </SessionCheck>
  );
}
