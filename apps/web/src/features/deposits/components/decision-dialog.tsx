import { type MoneyRequest, rejectBodySchema, staffReasonLengthMax } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { multiLineText } from '@coffer/contracts/text';
import { Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import {
  ReasonField,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { decideMoneyRequest } from '../api.ts';
import { moneyRequestDirectionLabels } from './money-request-badges.tsx';

export type Decision = 'approve' | 'reject';

// Approving needs no words (the request already has its reason); an optional note is kept.
const approveFormSchema = z.object({ reason: multiLineText({ max: staffReasonLengthMax }) });

function describeRequest(request: MoneyRequest): string {
  const amount = formatAmountMinor(request.amountMinor, request.currency, {
    currencyDisplay: 'code',
  });
  return `${moneyRequestDirectionLabels[request.direction]} of ${amount} for ${request.username}`;
}

function DecisionForm({
  request,
  decision,
  onClose,
}: {
  request: MoneyRequest;
  decision: Decision;
  onClose: () => void;
}) {
  const isApproval = decision === 'approve';
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(isApproval ? approveFormSchema : rejectBodySchema),
  });
  const decide = useStaffAction({
    mutationFn: (reason: string) =>
      decideMoneyRequest(request.id, decision, reason === '' ? {} : { reason }),
    onDone: (decided) => {
      showSuccessToast(
        decided.status === 'posted'
          ? `Approved and posted: ${describeRequest(decided)}`
          : `Rejected: ${describeRequest(decided)}`,
      );
      onClose();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
  });

  return (
    <form noValidate onSubmit={form.onSubmit((values) => decide.submit(values.reason.trim()))}>
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {describeRequest(request)}
          </Text>
          <Text size="sm">
            Prepared by {request.maker.username}: {request.reason}
          </Text>
          {request.externalReference && (
            <Text size="sm">Reference: {request.externalReference}</Text>
          )}
          <Text size="sm" c="dimmed">
            {isApproval
              ? 'Approving posts it to the ledger at once.'
              : 'Rejecting closes it without moving any money.'}
          </Text>
        </Stack>
        <FormAlert message={decide.formError} />
        <ReasonField
          label={isApproval ? 'Note (optional)' : 'Reason'}
          required={!isApproval}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={decide.isPending}
          busyLabel={isApproval ? 'Approving...' : 'Rejecting...'}
          color={isApproval ? undefined : 'red.9'}
        >
          {isApproval ? 'Approve' : 'Reject'}
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

export type DecisionTarget = { request: MoneyRequest; decision: Decision };

/** The second pair of eyes: approve (posts) or reject (with a reason) a pending request. */
export function DecisionDialog({
  target,
  opened,
  onClose,
  onExited,
}: {
  target: DecisionTarget | null;
  opened: boolean;
  onClose: () => void;
  onExited: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={target?.decision === 'reject' ? 'Reject request' : 'Approve request'}
      centered
    >
      {target && (
        <DecisionForm request={target.request} decision={target.decision} onClose={onClose} />
      )}
    </Modal>
  );
}
