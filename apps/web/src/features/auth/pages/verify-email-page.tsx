import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { FormAlert } from '../../../components/form-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { homeLinkFor } from '../../../lib/return-to.ts';
import { meQueryKey, useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { verifyEmail } from '../api.ts';
import { AuthCard } from '../components/auth-card.tsx';

/**
 * Follows an emailed verification link. The token works once, so the request is made once
 * per token: it is cached for the page's life and never refetched or retried.
 */
export function VerifyEmailPage() {
  const { t, i18n } = useLingui();
  const pageTitle = t`Email confirmation`;
  usePageTitle(pageTitle);
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const queryClient = useQueryClient();
  const me = useMe();
  const verification = useQuery({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail(token),
    enabled: token !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const verifiedUser = verification.data?.user;
  const verifiedEmail = verifiedUser?.email;
  useEffect(() => {
    if (!verifiedUser) return;
    // The signed-in user's address (or new address) changed: show it everywhere.
    const signedIn = queryClient.getQueryData(meQueryKey);
    if (signedIn?.id === verifiedUser.id) queryClient.setQueryData(meQueryKey, verifiedUser);
    void queryClient.invalidateQueries({ queryKey: ['profile'] });
  }, [verifiedUser, queryClient]);

  const nextStep = me ? (
    <Button component={Link} to={homeLinkFor(me.role).to} replace>
      {i18n._(homeLinkFor(me.role).label)}
    </Button>
  ) : (
    <Button component={Link} to="/signin" replace>
      <Trans>Login</Trans>
    </Button>
  );

  return (
    <AuthCard title={pageTitle}>
      {!token && (
        <Stack gap="md">
          <FormAlert
            message={t`This link is incomplete. Please open the link from the email again.`}
          />
          {nextStep}
        </Stack>
      )}
      {token && verification.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>
            <Trans>Confirming your email address…</Trans>
          </Text>
        </Group>
      )}
      {verification.isError && (
        <Stack gap="md">
          <FormAlert message={errorMessage(verification.error)} />
          <Text size="sm">
            <Trans>
              You can ask for a new link from the banner at the top of your account pages.
            </Trans>
          </Text>
          <Group>{nextStep}</Group>
        </Stack>
      )}
      {verifiedUser && (
        <Stack gap="md" role="status">
          <Text fz="lg">
            <Trans>
              Thank you. <strong>{verifiedEmail}</strong> is confirmed as the email address of your
              account.
            </Trans>
          </Text>
          <Group>{nextStep}</Group>
        </Stack>
      )}
    </AuthCard>
  );
}
