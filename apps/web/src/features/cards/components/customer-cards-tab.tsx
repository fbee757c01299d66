import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { customerCardsQueryOptions, staffCardActivityQueryOptions } from '../api.ts';
import { CardActivityTable } from './card-activity-table.tsx';
import { StaffCardsTable } from './staff-cards-table.tsx';

function LatestCardActivity({ cardId }: { cardId: string }) {
  const { t } = useLingui();
  const activity = useQuery(staffCardActivityQueryOptions(cardId));
  if (activity.isPending) return <LoadingState label={t`Loading card activity`} />;
  if (activity.isError) {
    return (
      <LoadFailed
        title={t`The card activity did not load`}
        error={activity.error}
        isRetrying={activity.isFetching}
        onRetry={() => activity.refetch()}
      />
    );
  }
  if (activity.data.items.length === 0) return <NothingFound title={t`No purchases yet`} />;
  return <CardActivityTable items={activity.data.items} />;
}

/** The Cards tab of a customer's page: every card and request, and the latest card's activity. */
export function CustomerCardsTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const cards = useQuery(customerCardsQueryOptions(userId));
  if (cards.isPending) return <LoadingState label={t`Loading cards`} />;
  if (cards.isError) {
    return (
      <LoadFailed
        title={t`The cards did not load`}
        error={cards.error}
        isRetrying={cards.isFetching}
        onRetry={() => cards.refetch()}
      />
    );
  }
  const [latest] = cards.data.items;
  if (!latest) return <NothingFound title={t`No card requested yet`} />;
  const lastFour = latest.lastFour;
  return (
    <Stack gap="lg">
      <StaffCardsTable label={t`Cards`} cards={cards.data.items} isCustomerShown={false} />
      {lastFour && (
        <Stack gap="sm">
          <Title order={3} size="h4">
            <Trans>Activity of the card ending {lastFour}</Trans>
          </Title>
          <LatestCardActivity cardId={latest.id} />
        </Stack>
      )}
    </Stack>
  );
}
