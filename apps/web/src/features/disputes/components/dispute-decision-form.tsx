import { toCurrencyCode } from '@coffer/contracts/currencies';
import { disputeRefundBound, type StaffDispute } from '@coffer/contracts/disputes';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormAlert } from '../../../components/form-alert.tsx';
import { SegmentedChoice } from '../../../components/segmented-choice.tsx';
import { amountTextForApi, formatAmountMinor, positiveAmountMinorOf } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { type DisputeDecision, decideDispute } from '../api.ts';

type Step = DisputeDecision['step'];

const stepLabels: Record<Step, MessageDescriptor> = {
  investigate: msg`Investigating`,
  resolve: msg`Resolve`,
  reject: msg`Reject`,
};

const doneMessages: Record<Step, MessageDescriptor> = {
  investigate: msg`Dispute moved to investigating`,
  resolve: msg`Dispute resolved`,
  reject: msg`Dispute rejected`,
};

/**
 * Says before submitting that the typed refund is above what one staff member may refund
 * alone (`disputeRefundBound`), so it will wait for a second admin; null otherwise, and
 * for text that is not an amount yet (the server refuses that with its own message).
 */
function refundAboveBoundHint(
  i18n: I18n,
  dispute: StaffDispute,
  refundText: string,
): string | null {
  const refundMinor = positiveAmountMinorOf(refundText.trim(), toCurrencyCode(dispute.currency));
  if (refundMinor === null) return null;
  const bound = disputeRefundBound(dispute, dispute.linkedTransaction);
  if (refundMinor <= bound.amountMinor) return null;
  const boundText = formatAmountMinor(bound.amountMinor, dispute.currency);
  return i18n._(
    bound.basis === 'the disputed amount'
      ? msg`Above the disputed amount (${boundText}): a second admin must approve this refund before it is paid.`
      : msg`Above the linked transaction’s amount (${boundText}): a second admin must approve this refund before it is paid.`,
  );
}

/** What happens to a refund typed by this staff member, true for support and for admins. */
function refundDescription(i18n: I18n, isSupport: boolean): string {
  return i18n._(
    isSupport
      ? msg`Credited from settlement as a staff deposit. A refund from support always waits for an admin's approval; the case stays under investigation until it is decided.`
      : msg`Credited from settlement as a staff deposit. Above the approval threshold or the disputed amount it waits for a second admin's approval; the case stays under investigation until it is decided.`,
  );
}

/**
 * Staff's next step on an open case. A resolution may carry a refund: a staff deposit
 * under the approval rule, so above the threshold or the disputed amount (or from
 * support) it waits for a second admin in the deposits queue, and the case with it. The
 * note is required to resolve or reject; the customer reads it.
 */
export function DisputeDecisionForm({ dispute }: { dispute: StaffDispute }) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const isSupport = useMe()?.role === 'support';
  const queryClient = useQueryClient();
  const steps: Step[] =
    dispute.status === 'pending' ? ['investigate', 'resolve', 'reject'] : ['resolve', 'reject'];
  const [step, setStep] = useState<Step>(steps[0] ?? 'resolve');
  const [note, setNote] = useState('');
  const [refundAmount, setRefundAmount] = useState('');
  const refundHint = refundAboveBoundHint(i18n, dispute, refundAmount);
  const decide = useMoneyAction({
    send: (decision: DisputeDecision, key) => decideDispute(dispute.id, decision, key),
    onSent: async (moved) => {
      showSuccessToast(
        moved.refund?.status === 'pending_approval'
          ? t`Refund sent for approval; the dispute stays open until it is decided`
          : i18n._(doneMessages[step]),
      );
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
  });
  const submit = () => {
    const trimmed = note.trim();
    if (step !== 'investigate' && trimmed === '') {
      decide.setFailure(t`Please write a note`);
      return;
    }
    if (step === 'investigate') decide.submit({ step, ...(trimmed ? { note: trimmed } : {}) });
    else if (step === 'reject') decide.submit({ step, note: trimmed });
    else
      decide.submit({
        step,
        note: trimmed,
        ...(refundAmount.trim() ? { refundAmount: amountTextForApi(refundAmount.trim()) } : {}),
      });
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Next step</Trans>
      </Title>
      <Stack gap="md" maw={560}>
        <FormAlert message={decide.failure} />
        <SegmentedChoice
          label={t`Next step`}
          value={step}
          onChange={setStep}
          data={steps.map((value) => ({ value, label: i18n._(stepLabels[value]) }))}
        />
        <Textarea
          label={t`Note to the customer`}
          required={step !== 'investigate'}
          autosize
          minRows={2}
          maxLength={1_000}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
        />
        {step === 'resolve' ? (
          <Stack gap={4}>
            <TextInput
              label={t`Refund (optional)`}
              description={refundDescription(i18n, isSupport)}
              inputMode="decimal"
              rightSection={dispute.currency}
              rightSectionWidth={56}
              value={refundAmount}
              onChange={(event) => setRefundAmount(event.currentTarget.value)}
            />
            <Text size="sm" c="orange.9" role="status" hidden={refundHint === null}>
              {refundHint}
            </Text>
          </Stack>
        ) : null}
        <Group>
          <Button onClick={submit} loading={decide.isPending}>
            {step === 'investigate' ? t`Move to investigating` : i18n._(stepLabels[step])}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
