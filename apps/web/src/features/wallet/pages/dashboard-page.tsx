import { Stack, Text, Title } from '@mantine/core';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { SystemStatusCard } from '../components/system-status-card.tsx';

export function DashboardPage() {
  usePageTitle('Dashboard');
  const me = useMe();
  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Hello, {me?.username || 'User'}</Title>
        <Text c="dimmed">
          Your wallet and its transactions will appear here. Below is the live status of the server
          you are connected to.
        </Text>
      </Stack>
      <SystemStatusCard />
    </Stack>
  );
}
