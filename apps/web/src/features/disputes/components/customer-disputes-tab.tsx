import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { customerDisputesQueryOptions } from '../api.ts';
import { StaffDisputesTable } from './staff-disputes-table.tsx';

/** The Disputes tab of a customer's page: every dispute, newest first. */
export function CustomerDisputesTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const disputes = useQuery(customerDisputesQueryOptions(userId));
  if (disputes.isPending) return <LoadingState label={t`Loading disputes`} />;
  if (disputes.isError) {
    return (
      <LoadFailed
        title={t`The disputes did not load`}
        error={disputes.error}
        isRetrying={disputes.isFetching}
        onRetry={() => disputes.refetch()}
      />
    );
  }
  if (disputes.data.items.length === 0) return <NothingFound title={t`No disputes`} />;
  return (
    <StaffDisputesTable
      label={t`Disputes`}
      disputes={disputes.data.items}
      isCustomerShown={false}
    />
  );
}
