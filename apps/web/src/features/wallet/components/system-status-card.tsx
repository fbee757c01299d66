import type { HealthResponse } from '@coffer/contracts/health';
import { Alert, Badge, Button, Card, DataList, Group, Loader, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { errorMessage } from '../../../lib/api-client.ts';
import { dateTimeFormat } from '../../../lib/dates.ts';
import { healthQueryOptions } from '../../../lib/health.ts';

const databaseLabels: Record<HealthResponse['database'], string> = {
  pglite: 'PGlite (embedded)',
  postgres: 'PostgreSQL',
};

/** What the server reports about itself, straight from GET /api/v1/health. */
export function SystemStatusCard() {
  const health = useQuery(healthQueryOptions);
  const headingId = 'system-status-heading';

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Title order={2} id={headingId}>
          System status
        </Title>
        {health.isSuccess && (
          <Badge color="green" variant="light">
            Online
          </Badge>
        )}
      </Group>

      {health.isPending && (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">Checking the server…</Text>
        </Group>
      )}

      {health.isError && (
        <Alert
          color="red"
          variant="light"
          title="The server did not answer"
          icon={<CircleAlert size={18} aria-hidden />}
        >
          <Text size="sm" mb="sm">
            {errorMessage(health.error)}
          </Text>
          <Button
            size="xs"
            variant="default"
            loading={health.isFetching}
            onClick={() => health.refetch()}
          >
            Try again
          </Button>
        </Alert>
      )}

      {health.isSuccess && (
        <DataList labelWidth={110}>
          <DataList.Item>
            <DataList.ItemLabel>Database</DataList.ItemLabel>
            <DataList.ItemValue>{databaseLabels[health.data.database]}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Mode</DataList.ItemLabel>
            <DataList.ItemValue>
              {health.data.isSandbox ? 'Sandbox' : 'Production'}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Checked at</DataList.ItemLabel>
            <DataList.ItemValue>
              {dateTimeFormat({ timeStyle: 'medium' }).format(new Date(health.dataUpdatedAt))}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
      )}
    </Card>
  );
}
