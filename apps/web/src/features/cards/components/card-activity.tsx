import { Card, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { cardActivityQueryOptions } from '../api.ts';
import { CardActivityTable } from './card-activity-table.tsx';

/** The customer's card activity, refreshed live by every authorization and settlement. */
export function CardActivity({ cardId }: { cardId: string }) {
  const headingId = useId();
  const activity = useQuery(cardActivityQueryOptions(cardId));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Card activity
      </Title>
      {activity.isPending ? (
        <LoadingState label="Loading card activity" />
      ) : activity.isError ? (
        <LoadFailed
          title="The card activity did not load"
          error={activity.error}
          isRetrying={activity.isFetching}
          onRetry={() => activity.refetch()}
        />
      ) : activity.data.items.length === 0 ? (
        <NothingFound title="No purchases yet" />
      ) : (
        <CardActivityTable items={activity.data.items} />
      )}
    </Card>
  );
}
