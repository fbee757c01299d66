import { Button, Center, Group, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { Link } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { useLogout } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { NotificationEmailSwitch } from '../../notifications/index.ts';
import { profileQueryOptions } from '../api.ts';
import { AccountDetailsCard } from '../components/account-details-card.tsx';
import { ActivityCard } from '../components/activity-card.tsx';
import { ChangePasswordCard } from '../components/change-password-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';
import { TwoFactorCard } from '../components/two-factor-card.tsx';

export function ProfilePage() {
  usePageTitle('Profile');
  const profile = useQuery(profileQueryOptions);
  const logout = useLogout();

  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>Profile</Title>
      {profile.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading your profile" />
        </Center>
      )}
      {profile.isError && (
        <LoadFailed
          title="Your profile did not load"
          error={profile.error}
          isRetrying={profile.isFetching}
          onRetry={() => profile.refetch()}
        />
      )}
      {profile.data && (
        <>
          <AccountDetailsCard profile={profile.data} />
          <ChangePasswordCard personalWords={[profile.data.username, profile.data.email]} />
          <TwoFactorCard hasTotp={profile.data.hasTotp} />
          <SessionsCard />
          <NotificationEmailSwitch />
          <ActivityCard />
          <Group>
            {profile.data.role === 'customer' ? (
              <Button component={Link} to="/dispute" variant="default">
                File Dispute
              </Button>
            ) : null}
            <Button
              variant="default"
              color="red"
              leftSection={<LogOut size={18} aria-hidden />}
              disabled={logout.isPending}
              onClick={() => logout.mutate()}
            >
              Logout
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}
