import type { Loan } from '@coffer/contracts/loans';
import { loanMessages } from '@coffer/contracts/loans';
import { Stack, Text } from '@mantine/core';
import { FormAlert } from '../../../components/form-alert.tsx';
import {
  RejectWithReasonForm,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { TargetModal } from '../../../components/target-modal.tsx';
import type { TargetDialogProps } from '../../../components/use-dialog-target.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { decideLoan } from '../api.ts';

export type LoanDecision = { loan: Loan; decision: 'approve' | 'decline' };

function LoanSummary({ loan }: { loan: Loan }) {
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  return (
    <Text size="sm">
      {loan.username}: {money(loan.amountMinor)} over {loan.months} months, salary{' '}
      {money(loan.monthlySalaryMinor)} a month, asked {formatDate(loan.createdAt)}.
    </Text>
  );
}

function ApproveForm({ loan, onClose }: { loan: Loan; onClose: () => void }) {
  const action = useStaffAction({
    mutationFn: () => decideLoan(loan.id, 'approve', {}),
    onDone: () => {
      showSuccessToast("Loan approved. It waits in the queue's To disburse list.");
      onClose();
    },
    describeError: (error) => errorMessage(error),
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        action.submit(undefined);
      }}
    >
      <Stack gap="md">
        <LoanSummary loan={loan} />
        <Text size="sm" c="dimmed">
          Approving does not move money: the loan then waits in this queue's To disburse list, where
          disbursing pays it out and fixes its schedule.
        </Text>
        <FormAlert message={action.formError} />
        <StaffActionButtons onCancel={onClose} isBusy={action.isPending} busyLabel="Approving...">
          Approve
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

/** Approve, or decline with a reason the customer sees (PRODUCT.md "Admin: one customer"). */
export function LoanDecisionDialog(props: TargetDialogProps<LoanDecision>) {
  return (
    <TargetModal
      {...props}
      title={props.target?.decision === 'decline' ? 'Decline loan' : 'Approve loan'}
    >
      {({ loan, decision }) =>
        decision === 'approve' ? (
          <ApproveForm loan={loan} onClose={props.onClose} />
        ) : (
          <RejectWithReasonForm
            reject={(body) =>
              decideLoan(loan.id, 'decline', body).catch((error: unknown) => {
                showErrorToast(loanMessages.declineFailed);
                throw error;
              })
            }
            onRejected={() => showSuccessToast(loanMessages.declined)}
            onClose={props.onClose}
          >
            <LoanSummary loan={loan} />
          </RejectWithReasonForm>
        )
      }
    </TargetModal>
  );
}
