import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { customerPayoutsQueryOptions } from '../api.ts';
import { PayoutsTable } from './payouts-table.tsx';

/** The Payouts tab of a customer's page: every withdrawal, newest first, with its decision. */
export function CustomerPayoutsTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const payouts = useQuery(customerPayoutsQueryOptions(userId));
  if (payouts.isPending) return <LoadingState label={t`Loading payouts`} />;
  if (payouts.isError) {
    return (
      <LoadFailed
        title={t`The payouts did not load`}
        error={payouts.error}
        isRetrying={payouts.isFetching}
        onRetry={() => payouts.refetch()}
      />
    );
  }
  if (payouts.data.items.length === 0) return <NothingFound title={t`No payouts yet`} />;
  return <PayoutsTable label={t`Payouts`} payouts={payouts.data.items} isCustomerShown={false} />;
}
