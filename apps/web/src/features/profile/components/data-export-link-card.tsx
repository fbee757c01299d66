import { Trans } from '@lingui/react/macro';
import { Button, Card, Group, Text, Title } from '@mantine/core';
import { Download } from 'lucide-react';
import { Link } from 'react-router';

/** The way to "Export my data", whose page (features/data-export) loads only when opened. */
export function DataExportLinkCard() {
  const headingId = 'data-export-link-heading';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb={4}>
        <Trans>Your data</Trans>
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>Download a copy of everything we hold about you, as JSON and CSV files.</Trans>
      </Text>
      <Group>
        <Button
          component={Link}
          to="/profile/export"
          variant="default"
          leftSection={<Download size={18} aria-hidden />}
        >
          <Trans>Export my data</Trans>
        </Button>
      </Group>
    </Card>
  );
}
