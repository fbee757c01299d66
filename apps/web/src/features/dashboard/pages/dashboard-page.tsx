import { Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { SystemStatusCard } from '../components/system-status-card.tsx';

export function DashboardPage() {
  usePageTitle('Dashboard');
  return (
    <Stack gap="lg" maw={720}>
      <Stack gap={4}>
        <Title order={1}>Dashboard</Title>
        <Text c="dimmed">
          This build has no sign-in yet, so there is no wallet or balance to show. Below is the live
          status of the server you are connected to.
        </Text>
      </Stack>
      <SystemStatusCard />
    </Stack>
  );
}
