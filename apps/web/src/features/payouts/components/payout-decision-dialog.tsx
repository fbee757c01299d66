import { errorCodes } from '@coffer/contracts/errors';
import { externalReferenceLengthMax } from '@coffer/contracts/ledger';
import { type StaffPayout, sendPayoutBodySchema } from '@coffer/contracts/payouts';
import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FormAlert } from '../../../components/form-alert.tsx';
import {
  ReasonField,
  RejectWithReasonForm,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { TargetModal } from '../../../components/target-modal.tsx';
import type { TargetDialogProps } from '../../../components/use-dialog-target.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { rejectPayout, sendPayout } from '../api.ts';
import { PayoutDestinationDetails } from './payout-destination-details.tsx';

export type PayoutDecision = 'send' | 'reject';
export type PayoutDecisionTarget = { payout: StaffPayout; decision: PayoutDecision };

/** The amount with its currency's code, and who asked: the words name them. */
function payoutFacts(payout: StaffPayout): { amount: string; username: string } {
  const amount = formatAmountMinor(payout.amountMinor, payout.currency, {
    currencyDisplay: 'code',
  });
  return { amount, username: payout.username };
}

function PayoutSummary({ payout }: { payout: StaffPayout }) {
  const { amount, username } = payoutFacts(payout);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        <Trans>
          Withdrawal of <bdi>{amount}</bdi> for {username}
        </Trans>
      </Text>
      <PayoutDestinationDetails destination={payout.destination} />
    </Stack>
  );
}

function MarkSentForm({ payout, onClose }: { payout: StaffPayout; onClose: () => void }) {
  const { t } = useLingui();
  const form = useForm({
    mode: 'controlled',
    initialValues: { externalReference: '', reason: '' },
    validate: contractResolver(sendPayoutBodySchema),
  });
  const send = useStaffAction({
    mutationFn: (values: { externalReference: string; reason: string }) =>
      sendPayout(payout.id, {
        externalReference: values.externalReference.trim(),
        ...(values.reason.trim() === '' ? {} : { reason: values.reason.trim() }),
      }),
    onDone: (sent) => {
      const { amount, username } = payoutFacts(sent);
      showSuccessToast(t`Marked as sent: ${amount} for ${username}`);
      onClose();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => send.submit(values))}>
      <Stack gap="md">
        <PayoutSummary payout={payout} />
        <Text size="sm" c="dimmed">
          <Trans>
            Mark it sent once the money has left: the held amount is then taken from the wallet.
          </Trans>
        </Text>
        <FormAlert message={send.formError} />
        <TextInput
          label={t`External reference`}
          description={t`The bank transfer's, PayPal's or the blockchain's reference`}
          required
          maxLength={externalReferenceLengthMax}
          data-autofocus
          {...form.getInputProps('externalReference')}
        />
        <ReasonField
          label={t`Note (optional)`}
          required={false}
          {...form.getInputProps('reason')}
        />
        <StaffActionButtons onCancel={onClose} isBusy={send.isPending} busyLabel={t`Saving...`}>
          <Trans>Mark sent</Trans>
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

function RejectForm({ payout, onClose }: { payout: StaffPayout; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <RejectWithReasonForm
      reject={(body) => rejectPayout(payout.id, body)}
      onRejected={(rejected) => {
        const { amount, username } = payoutFacts(rejected);
        showSuccessToast(t`Rejected: ${amount} for ${username}`);
      }}
      onClose={onClose}
      labels={{ action: t`Reject`, busy: t`Rejecting...`, color: 'red.9' }}
    >
      <PayoutSummary payout={payout} />
      <Text size="sm" c="dimmed">
        <Trans>Rejecting gives the held amount back to the customer, who sees your reason.</Trans>
      </Text>
    </RejectWithReasonForm>
  );
}

/** An admin marks a pending payout sent (with its reference) or rejects it (with a reason). */
export function PayoutDecisionDialog(props: TargetDialogProps<PayoutDecisionTarget>) {
  const { t } = useLingui();
  return (
    <TargetModal
      {...props}
      title={props.target?.decision === 'reject' ? t`Reject withdrawal` : t`Mark withdrawal sent`}
    >
      {(target) =>
        target.decision === 'send' ? (
          <MarkSentForm payout={target.payout} onClose={props.onClose} />
        ) : (
          <RejectForm payout={target.payout} onClose={props.onClose} />
        )
      }
    </TargetModal>
  );
}
