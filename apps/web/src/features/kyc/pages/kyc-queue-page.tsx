import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { kycQueueQueryOptions } from '../api.ts';
import { KycSubmissionsTable } from '../components/kyc-submissions-table.tsx';

/** Identity verifications waiting for review, oldest first (PRODUCT.md "Admin: queues"). */
export function KycQueuePage() {
  return (
    <QueuePage
      title="KYC queue"
      description="Identity verifications customers submitted, oldest first. Check the document against the details, then approve (the account becomes level 2) or reject with a reason the customer sees."
      emptyDescription="Every verification has been decided."
      queue={useQuery(kycQueueQueryOptions)}
    >
      {(submissions) => (
        <KycSubmissionsTable
          label="Verifications waiting for review"
          submissions={submissions}
          isCustomerShown
        />
      )}
    </QueuePage>
  );
}
