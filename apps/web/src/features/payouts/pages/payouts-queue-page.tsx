import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { payoutQueueQueryOptions } from '../api.ts';
import { PayoutsTable } from '../components/payouts-table.tsx';

/** Withdrawals waiting to be sent or rejected, oldest first (PRODUCT.md "Admin: queues"). */
export function PayoutsQueuePage() {
  const { t } = useLingui();
  return (
    <QueuePage
      title={t`Payouts queue`}
      description={t`Withdrawals customers asked for, oldest first. The amount is held in their wallet until an admin marks it sent, with the reference of the money that left, or rejects it with a reason the customer sees.`}
      emptyDescription={t`Every withdrawal has been decided.`}
      queue={useQuery(payoutQueueQueryOptions)}
    >
      {(payouts) => (
        <PayoutsTable label={t`Withdrawals waiting to be sent`} payouts={payouts} isCustomerShown />
      )}
    </QueuePage>
  );
}
