import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { mustSetUpTwoFactor, useLogout, useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { NotificationEmailSwitch } from '../../notifications/index.ts';
import { profileQueryOptions } from '../api.ts';
import { AccountDetailsCard } from '../components/account-details-card.tsx';
import { ActivityCard } from '../components/activity-card.tsx';
import { ChangePasswordCard } from '../components/change-password-card.tsx';
import { DataExportLinkCard } from '../components/data-export-link-card.tsx';
import { LanguageCard } from '../components/language-card.tsx';
import { PasskeysCard } from '../components/passkeys-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';
import { TwoFactorCard } from '../components/two-factor-card.tsx';
import { TwoFactorRequiredNotice } from '../components/two-factor-required-notice.tsx';

export function ProfilePage() {
  const { t } = useLingui();
  usePageTitle(t`Profile`);
  const profile = useQuery(profileQueryOptions);
  const logout = useLogout();
  const me = useMe();
  // Staff sent here to set up two-factor find it first; it stays there for the visit, so
  // that turning it on does not move its open dialog.
  const [wasAskedForTwoFactor] = useState(() => (me ? mustSetUpTwoFactor(me) : false));

  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>
        <Trans>Profile</Trans>
      </Title>
      <TwoFactorRequiredNotice wasAsked={wasAskedForTwoFactor} />
      {profile.isPending && (
        <Center py="xl">
          <Loader aria-label={t`Loading your profile`} />
        </Center>
      )}
      {profile.isError && (
        <LoadFailed
          title={t`Your profile did not load`}
          error={profile.error}
          isRetrying={profile.isFetching}
          onRetry={() => profile.refetch()}
        />
      )}
      {profile.data && (
        <>
          {wasAskedForTwoFactor ? <TwoFactorCard hasTotp={profile.data.hasTotp} /> : null}
          <AccountDetailsCard profile={profile.data} />
          <LanguageCard />
          <ChangePasswordCard personalWords={[profile.data.username, profile.data.email]} />
          {wasAskedForTwoFactor ? null : <TwoFactorCard hasTotp={profile.data.hasTotp} />}
          <PasskeysCard />
          <SessionsCard />
          <NotificationEmailSwitch />
          <ActivityCard />
          {profile.data.role === 'customer' ? <DataExportLinkCard /> : null}
          {profile.data.role === 'customer' ? (
            <Card
              withBorder
              padding="lg"
              component="section"
              aria-labelledby="close-account-heading"
            >
              <Title order={2} id="close-account-heading" mb={4}>
                <Trans>Close your account</Trans>
              </Title>
              <Text size="sm" c="dimmed" mb="md">
                <Trans>See what is left to settle first, then close it with your password.</Trans>
              </Text>
              <Group>
                <Button component={Link} to="/close-account" variant="default" color="red">
                  <Trans>Close my account</Trans>
                </Button>
              </Group>
            </Card>
          ) : null}
          <Group>
            {profile.data.role === 'customer' ? (
              <Button component={Link} to="/dispute" variant="default">
                <Trans>File Dispute</Trans>
              </Button>
            ) : null}
            <Button
              variant="default"
              color="red"
              leftSection={<LogOut size={18} aria-hidden />}
              disabled={logout.isPending}
              onClick={() => logout.mutate()}
            >
              <Trans>Logout</Trans>
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
