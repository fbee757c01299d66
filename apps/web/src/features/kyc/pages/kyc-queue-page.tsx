import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { kycQueueQueryOptions } from '../api.ts';
import { KycSubmissionsTable } from '../components/kyc-submissions-table.tsx';

/** Identity verifications waiting for review, oldest first (PRODUCT.md "Admin: queues"). */
export function KycQueuePage() {
  const { t } = useLingui();
  return (
    <QueuePage
      title={t`KYC queue`}
      description={t`Identity verifications customers submitted, oldest first. Check the document against the details, then approve (the account becomes level 2) or reject with a reason the customer sees.`}
      emptyDescription={t`Every verification has been decided.`}
      queue={useQuery(kycQueueQueryOptions)}
    >
      {(submissions) => (
        <KycSubmissionsTable
          label={t`Verifications waiting for review`}
          submissions={submissions}
          isCustomerShown
        />
      )}
    </QueuePage>
  );
}
