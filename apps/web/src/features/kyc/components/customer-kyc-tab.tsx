import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { customerKycQueryOptions } from '../api.ts';
import { KycSubmissionsTable } from './kyc-submissions-table.tsx';

/** The KYC tab of a customer's page: every verification, newest first, with its decision. */
export function CustomerKycTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const submissions = useQuery(customerKycQueryOptions(userId));
  if (submissions.isPending) return <LoadingState label={t`Loading verifications`} />;
  if (submissions.isError) {
    return (
      <LoadFailed
        title={t`The verifications did not load`}
        error={submissions.error}
        isRetrying={submissions.isFetching}
        onRetry={() => submissions.refetch()}
      />
    );
  }
  if (submissions.data.items.length === 0) {
    return <NothingFound title={t`No identity verification submitted yet`} />;
  }
  return (
    <KycSubmissionsTable
      label={t`Identity verifications`}
      submissions={submissions.data.items}
      isCustomerShown={false}
    />
  );
}
