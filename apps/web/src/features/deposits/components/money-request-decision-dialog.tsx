import { type MoneyRequest, rejectBodySchema, staffReasonLengthMax } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { multiLineText } from '@coffer/contracts/text';
import { Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { z } from 'zod/mini';
import { FormAlert } from '../../../components/form-alert.tsx';
import {
  ReasonField,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { TargetModal } from '../../../components/target-modal.tsx';
import type { TargetDialogProps } from '../../../components/use-dialog-target.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { decideMoneyRequest } from '../api.ts';
import { moneyRequestDirectionLabels } from './money-request-badges.tsx';

export type Decision = 'approve' | 'reject' | 'cancel';

// Approving or cancelling needs no words (the request has its reason); a note is kept.
const noteFormSchema = z.object({ reason: multiLineText({ max: staffReasonLengthMax }) });

const decisionWords = {
  approve: {
    title: 'Approve request',
    action: 'Approve',
    busy: 'Approving...',
    done: 'Approved and posted',
    effect: 'Approving posts it to the ledger at once.',
  },
  reject: {
    title: 'Reject request',
    action: 'Reject',
    busy: 'Rejecting...',
    done: 'Rejected',
    effect: 'Rejecting closes it without moving any money.',
  },
  cancel: {
    title: 'Cancel your request',
    action: 'Cancel request',
    busy: 'Cancelling...',
    done: 'Cancelled',
    effect: 'Cancelling withdraws it without moving any money; no admin can approve it after.',
  },
} as const;

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
  const words = decisionWords[decision];
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(decision === 'reject' ? rejectBodySchema : noteFormSchema),
  });
  const decide = useStaffAction({
    mutationFn: (reason: string) =>
      decideMoneyRequest(request.id, decision, reason === '' ? {} : { reason }),
    onDone: (decided) => {
      showSuccessToast(`${words.done}: ${describeRequest(decided)}`);
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
            {words.effect}
          </Text>
        </Stack>
        <FormAlert message={decide.formError} />
        <ReasonField
          label={decision === 'reject' ? 'Reason' : 'Note (optional)'}
          required={decision === 'reject'}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={decide.isPending}
          busyLabel={words.busy}
          color={decision === 'approve' ? undefined : 'red.9'}
        >
          {words.action}
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

export type DecisionTarget = { request: MoneyRequest; decision: Decision };

/**
 * The second pair of eyes approves (posts) or rejects (with a reason) a pending request;
 * its maker may cancel it.
 */
export function MoneyRequestDecisionDialog(props: TargetDialogProps<DecisionTarget>) {
  return (
    <TargetModal {...props} title={decisionWords[props.target?.decision ?? 'approve'].title}>
      {(target) => (
        <DecisionForm request={target.request} decision={target.decision} onClose={props.onClose} />
      )}
    </TargetModal>
  );
}
