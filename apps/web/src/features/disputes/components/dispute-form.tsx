import {
  type Dispute,
  type DisputeBody,
  disputeBodySchema,
  disputeDescriptionLengthMax,
  disputeFailedMessage,
  disputeProblemTypeLabels,
  disputeProblemTypes,
} from '@coffer/contracts/disputes';
import { entryKindLabel } from '@coffer/contracts/ledger';
import { Card, Checkbox, Group, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { disputableTransactionsQueryOptions, disputesQueryRoot, fileDispute } from '../api.ts';

type Values = {
  amount: string;
  recipientAccountNumber: string;
  problemType: string | null;
  description: string;
  entryId: string | null;
  freezeAccount: boolean;
};

const initialValues: Values = {
  amount: '',
  recipientAccountNumber: '',
  problemType: null,
  description: '',
  entryId: null,
  freezeAccount: false,
};

const problemTypeOptions = disputeProblemTypes.map((type) => ({
  value: type,
  label: disputeProblemTypeLabels[type],
}));

/** The form's values as the contract wants them: unset optional fields left out. */
function toBody(values: Values): Record<string, unknown> {
  return {
    amount: values.amount,
    recipientAccountNumber: values.recipientAccountNumber,
    problemType: values.problemType ?? undefined,
    description: values.description,
    entryId: values.entryId ?? undefined,
    freezeAccount:
      values.problemType === 'unauthorized_transaction' ? values.freezeAccount : undefined,
  };
}

/**
 * The transaction picker: the customer's latest entries (at most 50, newest first), and
 * what its empty choice says: still loading, none to pick, or pick one.
 */
function useTransactionOptions() {
  const transactions = useQuery(disputableTransactionsQueryOptions);
  const options = (transactions.data?.items ?? []).map((transaction) => ({
    value: transaction.id,
    label: `${formatDate(transaction.createdAt)} · ${entryKindLabel(transaction.kind)} · ${formatAmountMinor(transaction.amountMinor, transaction.currency, { signDisplay: 'always' })}`,
  }));
  const placeholder = transactions.isPending
    ? 'Loading your transactions…'
    : options.length === 0
      ? 'No transactions yet'
      : 'Pick one of your transactions';
  return { options, placeholder };
}

/** Report an issue: PRODUCT.md "Dispute". Answers with the filed dispute and its reference. */
export function DisputeForm({
  currency,
  onFiled,
}: {
  currency: string;
  onFiled: (dispute: Dispute) => void;
}) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: (values) => contractResolver(disputeBodySchema)(toBody(values)),
  });
  const transactions = useTransactionOptions();
  const file = useMutation({
    mutationFn: (body: DisputeBody) => fileDispute(body),
    onSuccess: async (dispute) => {
      form.setValues(initialValues);
      form.resetDirty();
      onFiled(dispute);
      await queryClient.invalidateQueries({ queryKey: disputesQueryRoot });
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
        New dispute
      </Title>
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          file.mutate(disputeBodySchema.parse(toBody(values)));
        })}
      >
        <Stack gap="md" maw={560}>
          <FormAlert message={formError} />
          <TextInput
            label="Amount"
            inputMode="decimal"
            required
            rightSection={currency}
            rightSectionWidth={56}
            {...form.getInputProps('amount')}
          />
          <TextInput
            label="Recipient's account number"
            required
            autoComplete="off"
            maxLength={50}
            {...form.getInputProps('recipientAccountNumber')}
          />
          <ChoiceSelect
            label="Problem type"
            placeholder="Select a problem type"
            data={problemTypeOptions}
            required
            {...form.getInputProps('problemType')}
          />
          <Textarea
            label="Description"
            description="What happened, and when"
            required
            autosize
            minRows={3}
            maxLength={disputeDescriptionLengthMax}
            {...form.getInputProps('description')}
          />
          <ChoiceSelect
            label="Transaction (optional)"
            placeholder={transactions.placeholder}
            data={transactions.options}
            isOptional
            {...form.getInputProps('entryId')}
          />
          {isUnauthorized ? (
            <Checkbox
              label="Freeze my account now: no money can leave it until staff lift the freeze"
              {...form.getInputProps('freezeAccount', { type: 'checkbox' })}
            />
          ) : null}
          <Group>
            <BusyButton isBusy={file.isPending} busyLabel="Submitting...">
              Submit Dispute
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
