import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { cardActivityQueryOptions } from '../api.ts';
import { CardActivityTable } from './card-activity-table.tsx';

/** The customer's card activity, refreshed live by every authorization and settlement. */
export function CardActivity({ cardId }: { cardId: string }) {
  const { t } = useLingui();
  const headingId = useId();
  const activity = useQuery(cardActivityQueryOptions(cardId));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Card activity</Trans>
      </Title>
      {activity.isPending ? (
        <LoadingState label={t`Loading card activity`} />
      ) : activity.isError ? (
        <LoadFailed
          title={t`The card activity did not load`}
          error={activity.error}
          isRetrying={activity.isFetching}
          onRetry={() => activity.refetch()}
        />
      ) : activity.data.items.length === 0 ? (
        <NothingFound title={t`No purchases yet`} />
      ) : (
        <CardActivityTable items={activity.data.items} />
      )}
    </Card>
  );
}
