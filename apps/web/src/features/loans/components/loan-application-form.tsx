import { toCurrencyCode } from '@coffer/contracts/currencies';
import {
  costDisclosure,
  formatRateBp,
  type LoanApplicationBody,
  type LoanOverview,
  loanApplicationBodySchema,
  loanMessages,
} from '@coffer/contracts/loans';
import { Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { formatAmountMinor, minorUnitStep, positiveAmountMinorOf } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { applyForLoan, loansQueryRoot } from '../api.ts';
import { LoanFigure } from './loan-figure.tsx';

type Terms = NonNullable<LoanOverview['terms']>;

/** The whole number of months typed, or null while it is not one the terms allow. */
function monthsOf(text: string, terms: Terms): number | null {
  if (!/^\d{1,2}$/.test(text.trim())) return null;
  const months = Number(text.trim());
  return months >= 1 && months <= terms.monthsMax ? months : null;
}

/**
 * What the loan would cost, as the customer types (issue #16): the same function the server
 * fixes the schedule with, so the figures here are the figures of the loan.
 */
function CostDisclosure({
  overview,
  terms,
  amount,
  months,
}: {
  overview: LoanOverview;
  terms: Terms;
  amount: string;
  months: string;
}) {
  const currency = toCurrencyCode(overview.currency);
  const amountMinor = positiveAmountMinorOf(amount, currency);
  const monthCount = monthsOf(months, terms);
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  const eligibilityMinor = overview.eligibility?.amountMinor ?? 0n;
  let content: ReactNode;
  if (amountMinor === null || monthCount === null) {
    content = (
      <Text size="sm" c="dimmed">
        Enter an amount and a number of months to see the monthly instalment and the total cost.
        Annual interest rate: {formatRateBp(terms.annualRateBp)}.
      </Text>
    );
  } else {
    const cost = costDisclosure(amountMinor, monthCount, terms);
    const isLastDifferent = cost.lastInstalmentMinor !== cost.instalmentMinor;
    content = (
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
          <LoanFigure label="Monthly instalment" value={money(cost.instalmentMinor)} />
          <LoanFigure label="Instalments" value={String(cost.instalmentCount)} />
          <LoanFigure label="Total interest" value={money(cost.totalInterestMinor)} />
          <LoanFigure label="Total repayable" value={money(cost.totalRepayableMinor)} />
          <LoanFigure label="Annual rate" value={formatRateBp(cost.annualRateBp)} />
        </SimpleGrid>
        {isLastDifferent && (
          <Text size="sm" c="dimmed">
            The last instalment is {money(cost.lastInstalmentMinor)}: it takes the rounding.
          </Text>
        )}
        {amountMinor > eligibilityMinor && (
          <Text size="sm" c="red.8">
            {loanMessages.aboveEligibility}
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Card withBorder padding="md" bg="gray.0" aria-live="polite" aria-label="Cost of this loan">
      <Text fw={600} mb="xs">
        Cost of this loan
      </Text>
      {content}
    </Card>
  );
}

/**
 * PRODUCT.md's application form, with the cost up front. It starts from what the customer
 * already gave (the server's `applicantDetails`), which they may correct.
 */
export function LoanApplicationForm({ overview, terms }: { overview: LoanOverview; terms: Terms }) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const currency = toCurrencyCode(overview.currency);
  const known = overview.applicantDetails;
  const initialValues = { ...known, monthlySalary: '', amount: '', months: '' };
  const isPrefilled = Boolean(known.fullName || known.phone || known.address);
  const apply = useMutation({
    mutationFn: (body: LoanApplicationBody) => applyForLoan(body),
    onSuccess: async () => {
      form.setValues(initialValues);
      showSuccessToast(loanMessages.submitted);
      await queryClient.invalidateQueries({ queryKey: loansQueryRoot });
    },
  });
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: loanApplicationBodySchema,
    initialValues,
    mutation: apply,
    otherFailureMessage: loanMessages.failed,
  });
  const step = minorUnitStep(currency);
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="xs">
        Apply for a loan
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        From {money(terms.amountMinMinor)} to {money(terms.amountMaxMinor)}, up to your approved
        eligibility, over 1 to {terms.monthsMax} months. No fees; no late fees.
        {isPrefilled &&
          ' What you gave us before (profile, verification, last application) is filled in: correct anything that has changed.'}
      </Text>
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <FormAlert message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Full Name"
              required
              autoComplete="name"
              {...form.getInputProps('fullName')}
            />
            <TextInput
              label="Phone Number"
              required
              type="tel"
              autoComplete="tel"
              {...form.getInputProps('phone')}
            />
          </SimpleGrid>
          <TextInput
            label="Full Address"
            required
            autoComplete="street-address"
            {...form.getInputProps('address')}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <AmountInput
              label="Monthly Salary"
              description="Before tax"
              currency={currency}
              {...form.getInputProps('monthlySalary')}
            />
            <AmountInput
              label="Requested Loan Amount"
              description={`In steps of ${step}`}
              currency={currency}
              {...form.getInputProps('amount')}
            />
            <TextInput
              label="Repayment Months"
              required
              inputMode="numeric"
              description={`1 to ${terms.monthsMax}`}
              {...form.getInputProps('months')}
            />
          </SimpleGrid>
          <CostDisclosure
            overview={overview}
            terms={terms}
            amount={String(form.values.amount)}
            months={String(form.values.months)}
          />
          <Group justify="flex-end">
            <BusyButton isBusy={isPending} busyLabel="Submitting...">
              Submit application
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
