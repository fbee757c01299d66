import { type Me, sessionResponseSchema } from '@coffer/contracts/auth';
import { type QueryClient, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ApiError, apiRequest, errorMessage, noContentSchema } from './api-client.ts';
import { showErrorToast } from './toasts.ts';

/**
 * Who is signed in, from GET /auth/session: the user, or null for a visitor (answered 200
 * either way). The session itself is an HttpOnly cookie the page cannot read, so the
 * server is the only one who knows.
 */
export const meQueryOptions = queryOptions({
  queryKey: ['auth', 'me'],
  queryFn: async ({ signal }): Promise<Me | null> =>
    (await apiRequest({ path: '/api/v1/auth/session', schema: sessionResponseSchema, signal }))
      .user,
  staleTime: 60_000,
});

export const meQueryKey = meQueryOptions.queryKey;

export function useMe(): Me | null | undefined {
  return useQuery(meQueryOptions).data;
}

/**
 * Staff whose installation requires two-factor of them (COFFER_STAFF_TWO_FACTOR) and who
 * have not turned it on: the server refuses them every back-office request, so the app
 * sends them to the set-up on their profile instead of any staff page.
 */
export function mustSetUpTwoFactor(me: Me): boolean {
  return me.isTwoFactorRequired && !me.hasTotp;
}

/** Router state of the profile page a staff page sent its visitor to, to set up two-factor. */
export type TwoFactorSetUpState = { backOfficePath: string };

export function twoFactorSetUpState(backOfficePath: string): TwoFactorSetUpState {
  return { backOfficePath };
}

/** The back-office page that sent the person to set up two-factor, if any. */
export function backOfficePathOf(state: unknown): string | null {
  return typeof state === 'object' &&
    state !== null &&
    'backOfficePath' in state &&
    typeof state.backOfficePath === 'string' &&
    state.backOfficePath.startsWith('/admin')
    ? state.backOfficePath
    : null;
}

/** Queries that belong to nobody in particular and survive a sign-out. */
const publicQueryRoots = new Set(['health', 'site']);

/**
 * Forgets everything cached for the previous user, then records who is signed in now.
 * Called on sign-in, sign-out and when the server says the session has ended.
 */
export function setSignedInUser(queryClient: QueryClient, user: Me | null): void {
  const previous = queryClient.getQueryData(meQueryKey);
  if (!user || previous?.id !== user.id) {
    queryClient.removeQueries({
      predicate: (query) =>
        query.queryKey[0] !== meQueryKey[0] && !publicQueryRoots.has(String(query.queryKey[0])),
    });
  }
  queryClient.setQueryData(meQueryKey, user);
}

/** Ends the session on the server. */
export function logOut(): Promise<void> {
  return apiRequest({ method: 'POST', path: '/api/v1/auth/logout', schema: noContentSchema });
}

/** Sends the signed-in user a new email verification link. */
export function resendVerificationEmail(): Promise<void> {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/auth/resend-verification',
    schema: noContentSchema,
  });
}

/** Router state of the login page right after Logout, while the user is being forgotten. */
export const logoutState = { isAfterLogout: true } as const;

export function isAfterLogout(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'isAfterLogout' in state;
}

/** Run by the login page that Logout opened: forgets the user it still shows. */
export function forgetUserAfterLogout(queryClient: QueryClient): void {
  if (queryClient.getQueryData(meQueryKey)) setSignedInUser(queryClient, null);
}

/**
 * Logout: ends the session on the server and replaces the page with the login page, so
 * Back does not return to an account page. The login page forgets the user once it is
 * shown (`forgetUserAfterLogout`): forgetting them while the account page is still shown
 * would make its guard send them to the login page with a way back to it.
 */
export function useLogout() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      try {
        await logOut();
      } catch (error) {
        // A session that already ended is as signed out as it gets.
        if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
    },
    onSuccess: () => navigate('/signin', { replace: true, state: logoutState }),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
}
