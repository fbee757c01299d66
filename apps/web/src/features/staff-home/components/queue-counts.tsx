import { useLingui } from '@lingui/react/macro';
import { Card, SimpleGrid, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { queueLabels } from '../../../lib/queue-labels.ts';
import { queueCountsQueryOptions } from '../api.ts';

/**
 * The staff home's first row: the open count of every queue this build has, each a link
 * to its queue, kept live. Queues not built yet are absent rather than shown as zero.
 */
export function QueueCounts() {
  const { t, i18n } = useLingui();
  const counts = useQuery(queueCountsQueryOptions);
  if (counts.isError) {
    return (
      <LoadFailed
        title={t`The queue counts did not load`}
        error={counts.error}
        isRetrying={counts.isFetching}
        onRetry={() => counts.refetch()}
      />
    );
  }
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="nav" aria-label={t`Work queues`}>
      {counts.isPending
        ? ['a', 'b', 'c', 'd'].map((key) => <Skeleton key={key} h={84} radius="md" />)
        : counts.data.items.map(({ queue, openCount }) => {
            const queueName = i18n._(queueLabels[queue]);
            return (
              <UnstyledButton
                key={queue}
                component={Link}
                to={`/admin/queues/${queue}`}
                aria-label={t`${queueName} queue: ${openCount} open`}
              >
                <Card withBorder padding="md" h="100%">
                  <Text size="sm" c="dimmed">
                    {queueName}
                  </Text>
                  <Text fz={28} fw={700} data-testid={`queue-count-${queue}`}>
                    {openCount}
                  </Text>
                </Card>
              </UnstyledButton>
            );
          })}
    </SimpleGrid>
  );
}
