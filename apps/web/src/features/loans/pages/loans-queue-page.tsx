import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { loanQueueQueryOptions } from '../api.ts';
import { LoanRequestsTable } from '../components/loan-requests-table.tsx';

/** Loan applications waiting for a decision, oldest first (PRODUCT.md "Admin: queues"). */
export function LoansQueuePage() {
  return (
    <QueuePage
      title="Loans queue"
      description="Loan applications, oldest first. Check the customer's eligibility and salary, then approve (and disburse from the customer page) or decline with a reason the customer sees."
      emptyDescription="Every loan application has been decided."
      queue={useQuery(loanQueueQueryOptions)}
    >
      {(loans) => <LoanRequestsTable loans={loans} isCustomerShown />}
    </QueuePage>
  );
}
