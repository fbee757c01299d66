import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { onDemand } from '../../../components/on-demand.tsx';
import { QueueSection, SectionedQueuePage } from '../../../components/queue-sections.tsx';
import {
  assessmentQueueQueryOptions,
  loanQueueQueryOptions,
  toDisburseQueueQueryOptions,
} from '../api.ts';
import { LoanRequestsTable } from '../components/loan-requests-table.tsx';

// The lists that are empty on most days load when they have something to show; the
// applications, the queue's daily work, load with the page.
const AssessmentRequestsTable = onDemand(
  async () => (await import('../components/assessment-requests-table.tsx')).AssessmentRequestsTable,
  msg`Loading the assessment requests`,
);
const ToDisburseTable = onDemand(
  async () => (await import('../components/to-disburse-table.tsx')).ToDisburseTable,
  msg`Loading the loans to disburse`,
);

/**
 * The loan's whole way through the back office, oldest first in each list (issue #31
 * item 2): customers asking for an assessment, applications to decide, approved loans to
 * pay out.
 */
export function LoansQueuePage() {
  const { t } = useLingui();
  return (
    <SectionedQueuePage
      title={t`Loans queue`}
      description={t`Every loan from the customer's first question to the payout, oldest first in each list.`}
    >
      <QueueSection
        title={t`Assessment requests`}
        description={t`Customers asking what they may borrow. Setting the eligibility answers them in their bell.`}
        emptyDescription={t`Nobody is waiting for an assessment.`}
        queue={useQuery(assessmentQueueQueryOptions)}
      >
        {(requests) => <AssessmentRequestsTable requests={requests} />}
      </QueueSection>
      <QueueSection
        title={t`Applications`}
        description={t`Check the customer's eligibility and salary, then approve, or decline with a reason the customer sees.`}
        emptyDescription={t`Every loan application has been decided.`}
        queue={useQuery(loanQueueQueryOptions)}
      >
        {(loans) => <LoanRequestsTable loans={loans} isCustomerShown />}
      </QueueSection>
      <QueueSection
        title={t`To disburse`}
        description={t`Approved loans not yet paid out. Disbursing credits the wallet and fixes the schedule.`}
        emptyDescription={t`Every approved loan has been paid out.`}
        queue={useQuery(toDisburseQueueQueryOptions)}
      >
        {(loans) => <ToDisburseTable loans={loans} />}
      </QueueSection>
    </SectionedQueuePage>
  );
}
