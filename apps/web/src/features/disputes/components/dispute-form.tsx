import { toCurrencyCode } from '@coffer/contracts/currencies';
import {
  type Dispute,
  type DisputeTransaction,
  disputeDescriptionLengthMax,
  disputeFailedMessage,
} from '@coffer/contracts/disputes';
import {
  type DisputeBody,
  type DisputeKind,
  disputeBodySchema,
  disputeKindOfEntryText,
  disputeProblemTypesOf,
} from '@coffer/contracts/disputes-filing';
import { toDecimalString } from '@coffer/contracts/money';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Checkbox, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { amountTextForApi } from '../../../lib/money.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { disputesQueryRoot, fileDispute } from '../api.ts';
import { problemChoiceLabels } from '../labels.ts';

type Values = {
  amount: string;
  recipientAccountNumber: string;
  problemType: string | null;
  description: string;
  freezeAccount: boolean;
  freezeCard: boolean;
};

/** The line's size as the amount's first value: the whole transaction is disputed until edited. */
function initialValuesFor(transaction: DisputeTransaction | null): Values {
  const sizeMinor = transaction
    ? transaction.amountMinor < 0n
      ? -transaction.amountMinor
      : transaction.amountMinor
    : null;
  return {
    amount:
      transaction && sizeMinor !== null
        ? toDecimalString(sizeMinor, toCurrencyCode(transaction.currency))
        : '',
    recipientAccountNumber: '',
    problemType: null,
    description: '',
    freezeAccount: false,
    freezeCard: false,
  };
}

/**
 * The form's values as the contract wants them for this kind: only its fields, since the
 * server refuses a field of another kind rather than drop it.
 */
function toBody(
  values: Values,
  kind: DisputeKind,
  transaction: DisputeTransaction | null,
): Record<string, unknown> {
  const common = {
    kind,
    amount: amountTextForApi(values.amount),
    problemType: values.problemType ?? undefined,
    description: values.description,
  };
  const freezeAccount =
    values.problemType === 'unauthorized_transaction' ? values.freezeAccount : undefined;
  if (kind === 'general') {
    return { ...common, recipientAccountNumber: values.recipientAccountNumber, freezeAccount };
  }
  const entryId = transaction?.id;
  if (kind === 'card') return { ...common, entryId, freezeCard: values.freezeCard };
  return { ...common, entryId, freezeAccount };
}

function problemTypeOptions(i18n: I18n, kind: DisputeKind) {
  const labels: Partial<Record<string, MessageDescriptor>> = problemChoiceLabels[kind];
  return disputeProblemTypesOf(kind).flatMap((value) => {
    const label = labels[value];
    return label ? [{ value, label: i18n._(label) }] : [];
  });
}

/**
 * Report an issue: PRODUCT.md "Dispute", and issue #31 item 9. About one of the customer's
 * transactions (`transaction`), it asks only what fits its kind: the amount starts at the
 * line's, the problems are the kind's, a card purchase may freeze the card; with none, the
 * amount and recipient are typed. Answers with the filed dispute and its reference.
 */
export function DisputeForm({
  currency,
  transaction,
  picker,
  onFiled,
}: {
  currency: string;
  transaction: DisputeTransaction | null;
  /** The transaction picker, at the top of the form. */
  picker: ReactNode;
  onFiled: (dispute: Dispute) => void;
}) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const kind: DisputeKind = transaction ? disputeKindOfEntryText(transaction.kind) : 'general';
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: initialValuesFor(transaction),
    validate: (values) => contractResolver(disputeBodySchema)(toBody(values, kind, transaction)),
  });
  const file = useMutation({
    mutationFn: (body: DisputeBody) => fileDispute(body),
    onSuccess: async (dispute) => {
      form.setValues(initialValuesFor(transaction));
      form.resetDirty();
      onFiled(dispute);
      // The transaction lists say which lines are disputed; a card freeze shows on /cards.
      await Promise.all(
        [disputesQueryRoot, ['wallet'], ['cards']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
    onError: (error) => {
      const message = showApiErrorOnForm(form, error, {
        otherFailureMessage: disputeFailedMessage,
      });
      setFormError(message);
      if (message) showErrorToast(message);
    },
  });
  const isUnauthorized = form.values.problemType === 'unauthorized_transaction';

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>New dispute</Trans>
      </Title>
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          file.mutate(disputeBodySchema.parse(toBody(values, kind, transaction)));
        })}
      >
        <Stack gap="md" maw={560}>
          <FormAlert message={formError} />
          {picker}
          <TextInput
            label={t`Amount`}
            description={
              transaction ? t`The whole transaction, or only the part that is wrong` : undefined
            }
            inputMode="decimal"
            required
            rightSection={currency}
            rightSectionWidth={56}
            {...form.getInputProps('amount')}
          />
          {kind === 'general' ? (
            <TextInput
              label={t`Recipient's account number`}
              required
              autoComplete="off"
              maxLength={50}
              {...form.getInputProps('recipientAccountNumber')}
            />
          ) : null}
          <ChoiceSelect
            label={kind === 'card' ? t`What's wrong with this purchase?` : t`Problem type`}
            placeholder={t`Select a problem type`}
            data={problemTypeOptions(i18n, kind)}
            required
            {...form.getInputProps('problemType')}
          />
          <Textarea
            label={t`Description`}
            description={t`What happened, and when`}
            required
            autosize
            minRows={3}
            maxLength={disputeDescriptionLengthMax}
            {...form.getInputProps('description')}
          />
          {kind === 'card' ? (
            <Checkbox
              label={t`Freeze my card now: its purchases are declined until I unfreeze it on the Cards page`}
              {...form.getInputProps('freezeCard', { type: 'checkbox' })}
            />
          ) : isUnauthorized ? (
            <Checkbox
              label={t`Freeze my account now: no money can leave it until staff lift the freeze`}
              {...form.getInputProps('freezeAccount', { type: 'checkbox' })}
            />
          ) : null}
          <Group>
            <BusyButton isBusy={file.isPending} busyLabel={t`Submitting...`}>
              <Trans>Submit Dispute</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
