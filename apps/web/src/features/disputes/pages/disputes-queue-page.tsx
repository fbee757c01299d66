import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { disputeQueueQueryOptions } from '../api.ts';
import { StaffDisputesTable } from '../components/staff-disputes-table.tsx';

/** Disputes not yet decided, oldest first (PRODUCT.md "Admin: queues"). */
export function DisputesQueuePage() {
  const { t } = useLingui();
  return (
    <QueuePage
      title={t`Disputes queue`}
      description={t`Problems customers reported, oldest first. Open a case to investigate it, resolve it (with a refund if one is due) or reject it; the customer sees every step and its note.`}
      emptyDescription={t`Every dispute has been decided.`}
      queue={useQuery(disputeQueueQueryOptions)}
    >
      {(disputes) => (
        <StaffDisputesTable label={t`Open disputes`} disputes={disputes} isCustomerShown />
      )}
    </QueuePage>
  );
}
