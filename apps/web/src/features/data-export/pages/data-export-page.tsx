import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { DataExportCard } from '../components/data-export-card.tsx';

export function DataExportPage() {
  usePageTitle('Export my data');
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to="/profile" size="sm">
        Back to your profile
      </Anchor>
      <Title order={1}>Your data</Title>
      <DataExportCard />
    </Stack>
  );
}
