import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { DataExportCard } from '../components/data-export-card.tsx';

export function DataExportPage() {
  const { t } = useLingui();
  usePageTitle(t`Export my data`);
  return (
    <Stack gap="lg" maw={880}>
      <Anchor component={Link} to="/profile" size="sm">
        <Trans>Back to your profile</Trans>
      </Anchor>
      <Title order={1}>
        <Trans>Your data</Trans>
      </Title>
      <DataExportCard />
    </Stack>
  );
}
