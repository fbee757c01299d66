import { customerActivitySchema } from '@coffer/contracts/audit';
import {
  type PasskeyList,
  passkeyListSchema,
  passkeyRegistrationOptionsResponseSchema,
} from '@coffer/contracts/passkeys';
import {
  profileSchema,
  sessionListSchema,
  totpEnableResponseSchema,
  totpSetupResponseSchema,
} from '@coffer/contracts/profile';
import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest, noContentSchema } from '../../lib/api-client.ts';
import { createPasskey } from '../../lib/passkeys.ts';
import { meQueryKey } from '../../lib/session.ts';

export const profileQueryOptions = queryOptions({
  queryKey: ['profile'],
  queryFn: ({ signal }) => apiRequest({ path: '/api/v1/profile', schema: profileSchema, signal }),
});

export const sessionsQueryOptions = queryOptions({
  queryKey: ['profile', 'sessions'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/profile/sessions', schema: sessionListSchema, signal }),
});

const activityPageSize = 20;

/** "Activity on your account": what happened to it, newest first, with staff's reasons. */
export const activityQueryOptions = infiniteQueryOptions({
  queryKey: ['profile', 'activity'],
  queryFn: ({ pageParam, signal }) =>
    apiRequest({
      path: `/api/v1/profile/activity?${new URLSearchParams({
        limit: String(activityPageSize),
        ...(pageParam ? { cursor: pageParam } : {}),
      }).toString()}`,
      schema: customerActivitySchema,
      signal,
    }),
  initialPageParam: null as string | null,
  getNextPageParam: (page) => page.nextCursor,
});

/**
 * After a change the server records in the account's activity (username, email, password,
 * two-factor): the activity card shows it without a reload, and the sessions card too,
 * since such a change may have ended the other sessions.
 */
export async function refreshActivityAndSessions(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: activityQueryOptions.queryKey }),
    queryClient.invalidateQueries({ queryKey: sessionsQueryOptions.queryKey }),
  ]);
}

/** Renames the person; the profile and the signed-in header show the new name at once. */
export function useUpdateUsername() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string }) =>
      apiRequest({
        method: 'PATCH',
        path: '/api/v1/profile/username',
        body,
        schema: profileSchema,
      }),
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryOptions.queryKey, profile);
      queryClient.setQueryData(meQueryKey, (me) =>
        me ? { ...me, username: profile.username } : me,
      );
      void refreshActivityAndSessions(queryClient);
    },
  });
}

/** The zone statements cut days in; the session's copy changes with it, as the pages read it. */
export function useUpdateTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { timeZone: string }) =>
      apiRequest({
        method: 'PATCH',
        path: '/api/v1/profile/time-zone',
        body,
        schema: profileSchema,
      }),
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryOptions.queryKey, profile);
      queryClient.setQueryData(meQueryKey, (me) =>
        me ? { ...me, timeZone: profile.timeZone } : me,
      );
      void queryClient.invalidateQueries({ queryKey: ['wallet', 'statement'] });
      void refreshActivityAndSessions(queryClient);
    },
  });
}

/** Asks for a new email address; it changes when the link sent there is followed. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { newEmail: string; currentPassword: string; endOtherSessions: boolean }) =>
      apiRequest({ method: 'POST', path: '/api/v1/profile/email', body, schema: profileSchema }),
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryOptions.queryKey, profile);
      void refreshActivityAndSessions(queryClient);
    },
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      currentPassword: string;
      newPassword: string;
      endOtherSessions: boolean;
    }) =>
      apiRequest({
        method: 'POST',
        path: '/api/v1/profile/password',
        body,
        schema: noContentSchema,
      }),
    onSuccess: () => {
      void refreshActivityAndSessions(queryClient);
      // A password that had to be changed no longer has to: the session says so.
      void queryClient.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}

export function setUpTotp(body: { currentPassword: string }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/profile/totp/setup',
    body,
    schema: totpSetupResponseSchema,
  });
}

export function enableTotp(body: { code: string; endOtherSessions: boolean }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/profile/totp/enable',
    body,
    schema: totpEnableResponseSchema,
  });
}

export function disableTotp(body: { code: string; endOtherSessions: boolean }) {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/profile/totp/disable',
    body,
    schema: noContentSchema,
  });
}

export function revokeSession(sessionId: string) {
  return apiRequest({
    method: 'DELETE',
    path: `/api/v1/profile/sessions/${encodeURIComponent(sessionId)}`,
    schema: noContentSchema,
  });
}

export function revokeOtherSessions() {
  return apiRequest({
    method: 'POST',
    path: '/api/v1/profile/sessions/revoke-others',
    schema: noContentSchema,
  });
}

export const passkeysQueryOptions = queryOptions({
  queryKey: ['profile', 'passkeys'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/profile/passkeys', schema: passkeyListSchema, signal }),
});

/** After a passkey change: the list shows it, and the activity records it. */
function usePasskeyMutation<Body>(request: (body: Body) => Promise<PasskeyList>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (list) => {
      queryClient.setQueryData(passkeysQueryOptions.queryKey, list);
      void refreshActivityAndSessions(queryClient);
    },
  });
}

/** Adds a passkey: the password opens the server's options, the authenticator makes it. */
export function useAddPasskey() {
  return usePasskeyMutation(async (body: { name: string; currentPassword: string }) => {
    const { options } = await apiRequest({
      method: 'POST',
      path: '/api/v1/profile/passkeys/options',
      body: { currentPassword: body.currentPassword },
      schema: passkeyRegistrationOptionsResponseSchema,
    });
    const response = await createPasskey(options);
    return apiRequest({
      method: 'POST',
      path: '/api/v1/profile/passkeys',
      body: { name: body.name, response },
      schema: passkeyListSchema,
    });
  });
}

export function useRenamePasskey(passkeyId: string) {
  return usePasskeyMutation((body: { name: string }) =>
    apiRequest({
      method: 'PATCH',
      path: `/api/v1/profile/passkeys/${encodeURIComponent(passkeyId)}`,
      body,
      schema: passkeyListSchema,
    }),
  );
}

export function useRemovePasskey(passkeyId: string) {
  return usePasskeyMutation((body: { currentPassword: string }) =>
    apiRequest({
      method: 'POST',
      path: `/api/v1/profile/passkeys/${encodeURIComponent(passkeyId)}/remove`,
      body,
      schema: passkeyListSchema,
    }),
  );
}
