import type { Loan } from '@coffer/contracts/loans';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
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
  const username = loan.username;
  const amount = formatAmountMinor(loan.amountMinor, loan.currency);
  const months = loan.months;
  const salary = formatAmountMinor(loan.monthlySalaryMinor, loan.currency);
  const askedOn = formatDate(loan.createdAt);
  return (
    <Text size="sm">
      <Trans>
        {username}: <bdi>{amount}</bdi> over{' '}
        <Plural value={months} one="# month" other="# months" />, salary <bdi>{salary}</bdi> a
        month, asked {askedOn}.
      </Trans>
    </Text>
  );
}

function ApproveForm({ loan, onClose }: { loan: Loan; onClose: () => void }) {
  const { t } = useLingui();
  const action = useStaffAction({
    mutationFn: () => decideLoan(loan.id, 'approve', {}),
    onDone: () => {
      showSuccessToast(t`Loan approved. It waits in the queue's To disburse list.`);
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
          <Trans>
            Approving does not move money: the loan then waits in this queue's To disburse list,
            where disbursing pays it out and fixes its schedule.
          </Trans>
        </Text>
        <FormAlert message={action.formError} />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={action.isPending}
          busyLabel={t`Approving...`}
        >
          <Trans>Approve</Trans>
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

/** Approve, or decline with a reason the customer sees (PRODUCT.md "Admin: one customer"). */
export function LoanDecisionDialog(props: TargetDialogProps<LoanDecision>) {
  const { t } = useLingui();
  return (
    <TargetModal
      {...props}
      title={props.target?.decision === 'decline' ? t`Decline loan` : t`Approve loan`}
    >
      {({ loan, decision }) =>
        decision === 'approve' ? (
          <ApproveForm loan={loan} onClose={props.onClose} />
        ) : (
          <RejectWithReasonForm
            reject={(body) =>
              decideLoan(loan.id, 'decline', body).catch((error: unknown) => {
                showErrorToast(t`Failed to decline loan`);
                throw error;
              })
            }
            onRejected={() => showSuccessToast(t`Loan request declined`)}
            onClose={props.onClose}
          >
            <LoanSummary loan={loan} />
          </RejectWithReasonForm>
        )
      }
    </TargetModal>
  );
}
