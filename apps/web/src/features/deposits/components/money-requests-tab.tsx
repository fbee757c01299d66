import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { customerMoneyRequestsQueryOptions } from '../api.ts';
import { MoneyRequestsTable } from './money-requests-table.tsx';

/** The customer's deposits and adjustments, newest first, pending ones with their decision. */
export function MoneyRequestsTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const requests = useQuery(customerMoneyRequestsQueryOptions(userId));
  if (requests.isPending) return <LoadingState label={t`Loading deposits and adjustments`} />;
  if (requests.isError) {
    return (
      <LoadFailed
        title={t`The deposits and adjustments did not load`}
        error={requests.error}
        isRetrying={requests.isFetching}
        onRetry={() => requests.refetch()}
      />
    );
  }
  if (requests.data.items.length === 0) {
    return <NothingFound title={t`No deposits or adjustments yet`} />;
  }
  return (
    <MoneyRequestsTable
      label={t`Deposits and adjustments`}
      requests={requests.data.items}
      isCustomerShown={false}
    />
  );
}
