import { type MoneyRequest, rejectBodySchema, staffReasonLengthMax } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { multiLineText } from '@coffer/contracts/text';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

export type Decision = 'approve' | 'reject' | 'cancel';

// Approving or cancelling needs no words (the request has its reason); a note is kept.
const noteFormSchema = z.object({ reason: multiLineText({ max: staffReasonLengthMax }) });

const decisionWords: Record<
  Decision,
  {
    title: MessageDescriptor;
    action: MessageDescriptor;
    busy: MessageDescriptor;
    done: (summary: string) => MessageDescriptor;
    effect: MessageDescriptor;
  }
> = {
  approve: {
    title: msg`Approve request`,
    action: msg`Approve`,
    busy: msg`Approving...`,
    done: (summary) => msg`Approved and posted: ${summary}`,
    effect: msg`Approving posts it to the ledger at once.`,
  },
  reject: {
    title: msg`Reject request`,
    action: msg`Reject`,
    busy: msg`Rejecting...`,
    done: (summary) => msg`Rejected: ${summary}`,
    effect: msg`Rejecting closes it without moving any money.`,
  },
  cancel: {
    title: msg`Cancel your request`,
    action: msg`Cancel request`,
    busy: msg`Cancelling...`,
    done: (summary) => msg`Cancelled: ${summary}`,
    effect: msg`Cancelling withdraws it without moving any money; no admin can approve it after.`,
  },
};

/** "Deposit of USD 25.00 for Alice Morgan", as a whole phrase of the page's language. */
function requestSummary(request: MoneyRequest): MessageDescriptor {
  const amount = formatAmountMinor(request.amountMinor, request.currency, {
    currencyDisplay: 'code',
  });
  const { username } = request;
  return request.direction === 'deposit'
    ? msg`Deposit of ${amount} for ${username}`
    : msg`Debit adjustment of ${amount} for ${username}`;
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
  const { t, i18n } = useLingui();
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
      showSuccessToast(i18n._(words.done(i18n._(requestSummary(decided)))));
      onClose();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
  });

  const { reason, externalReference } = request;
  const maker = request.maker.username;
  return (
    <form noValidate onSubmit={form.onSubmit((values) => decide.submit(values.reason.trim()))}>
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {i18n._(requestSummary(request))}
          </Text>
          <Text size="sm">
            <Trans>
              Prepared by {maker}: {reason}
            </Trans>
          </Text>
          {externalReference && (
            <Text size="sm">
              <Trans>Reference: {externalReference}</Trans>
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {i18n._(words.effect)}
          </Text>
        </Stack>
        <FormAlert message={decide.formError} />
        <ReasonField
          label={decision === 'reject' ? t`Reason` : t`Note (optional)`}
          required={decision === 'reject'}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={decide.isPending}
          busyLabel={i18n._(words.busy)}
          color={decision === 'approve' ? undefined : 'red.9'}
        >
          {i18n._(words.action)}
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
  const { i18n } = useLingui();
  return (
    <TargetModal
      {...props}
      title={i18n._(decisionWords[props.target?.decision ?? 'approve'].title)}
    >
      {(target) => (
        <DecisionForm request={target.request} decision={target.decision} onClose={props.onClose} />
      )}
    </TargetModal>
  );
}
