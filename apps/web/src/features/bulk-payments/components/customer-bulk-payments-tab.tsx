import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { customerBulkPaymentsQueryOptions } from '../api.ts';
import { BulkPaymentsTable } from './bulk-payments-table.tsx';

/** The back office's read-only view of a customer's bulk payment files. */
export function CustomerBulkPaymentsTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const query = useQuery(customerBulkPaymentsQueryOptions(userId));
  if (query.isPending) return <LoadingState label={t`Loading bulk payments`} />;
  if (query.isError) {
    return (
      <LoadFailed
        error={query.error}
        isRetrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.items.length === 0) return <NothingFound title={t`No bulk payment files`} />;
  return <BulkPaymentsTable items={query.data.items} />;
}
