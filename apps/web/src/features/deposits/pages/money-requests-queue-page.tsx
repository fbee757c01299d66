import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { depositQueueQueryOptions } from '../api.ts';
import { MoneyRequestsTable } from '../components/money-requests-table.tsx';

/** Deposits and debit adjustments waiting for a second admin, oldest first. */
export function MoneyRequestsQueuePage() {
  const { t } = useLingui();
  return (
    <QueuePage
      title={t`Deposits queue`}
      description={t`Deposits and debit adjustments above the approval threshold, or prepared by support, wait here for an admin other than the one who prepared them. Oldest first.`}
      emptyDescription={t`Every request has been decided.`}
      queue={useQuery(depositQueueQueryOptions)}
    >
      {(requests) => (
        <MoneyRequestsTable
          label={t`Requests waiting for approval`}
          requests={requests}
          isCustomerShown
        />
      )}
    </QueuePage>
  );
}
