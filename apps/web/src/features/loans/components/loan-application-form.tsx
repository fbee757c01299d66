import { toCurrencyCode } from '@coffer/contracts/currencies';
import {
  costDisclosure,
  type LoanApplicationBody,
  type LoanOverview,
  loanApplicationBodySchema,
} from '@coffer/contracts/loans';
import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { AmountInput } from '../../../components/amount-input.tsx';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { amountTextForApi, formatAmountMinor, positiveAmountMinorOf } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { applyForLoan, loansQueryRoot } from '../api.ts';
import { LoanFigure } from './loan-figure.tsx';
import { useRateText } from './rate-text.ts';
import { minorUnitStepText } from './step-text.ts';

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
  const { t } = useLingui();
  const rateText = useRateText();
  const currency = toCurrencyCode(overview.currency);
  const amountMinor = positiveAmountMinorOf(amount, currency);
  const monthCount = monthsOf(months, terms);
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  const eligibilityMinor = overview.eligibility?.amountMinor ?? 0n;
  let content: ReactNode;
  if (amountMinor === null || monthCount === null) {
    const rate = rateText(terms.annualRateBp);
    content = (
      <Text size="sm" c="dimmed">
        <Trans>
          Enter an amount and a number of months to see the monthly instalment and the total cost.
          Annual interest rate: <bdi>{rate}</bdi>.
        </Trans>
      </Text>
    );
  } else {
    const cost = costDisclosure(amountMinor, monthCount, terms);
    const isLastDifferent = cost.lastInstalmentMinor !== cost.instalmentMinor;
    const instalmentCount = cost.instalmentCount;
    const lastInstalment = money(cost.lastInstalmentMinor);
    content = (
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm">
          <LoanFigure label={t`Monthly instalment`} value={money(cost.instalmentMinor)} />
          <LoanFigure
            label={t`Instalments`}
            value={t`${plural(instalmentCount, { one: '# monthly instalment', other: '# monthly instalments' })}`}
          />
          <LoanFigure label={t`Total interest`} value={money(cost.totalInterestMinor)} />
          <LoanFigure label={t`Total repayable`} value={money(cost.totalRepayableMinor)} />
          <LoanFigure label={t`Annual rate`} value={rateText(cost.annualRateBp)} />
        </SimpleGrid>
        {isLastDifferent && (
          <Text size="sm" c="dimmed">
            <Trans>
              The last instalment is <bdi>{lastInstalment}</bdi>: it takes the rounding.
            </Trans>
          </Text>
        )}
        {amountMinor > eligibilityMinor && (
          <Text size="sm" c="red.8">
            <Trans>Requested amount is above your approved eligibility</Trans>
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Card withBorder padding="md" bg="gray.0" aria-live="polite" aria-label={t`Cost of this loan`}>
      <Text fw={600} mb="xs">
        <Trans>Cost of this loan</Trans>
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
  const { t } = useLingui();
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
      showSuccessToast(t`Loan application submitted for admin review.`);
      await queryClient.invalidateQueries({ queryKey: loansQueryRoot });
    },
  });
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: loanApplicationBodySchema,
    initialValues,
    mutation: apply,
    // Amounts typed the language's way ("1.500,50") reach the API as plain decimals.
    toBody: (values) => {
      const body = loanApplicationBodySchema.parse(values);
      return {
        ...body,
        monthlySalary: amountTextForApi(body.monthlySalary),
        amount: amountTextForApi(body.amount),
      };
    },
    otherFailureMessage: t`Error submitting application`,
  });
  const step = minorUnitStepText(currency);
  const money = (minor: bigint) => formatAmountMinor(minor, currency);
  const amountMin = money(terms.amountMinMinor);
  const amountMax = money(terms.amountMaxMinor);
  const monthsMax = terms.monthsMax;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="xs">
        <Trans>Apply for a loan</Trans>
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        <Trans>
          From <bdi>{amountMin}</bdi> to <bdi>{amountMax}</bdi>, up to your approved eligibility,
          over 1 to <Plural value={monthsMax} one="# month" other="# months" />. No fees; no late
          fees.
        </Trans>
        {isPrefilled && ' '}
        {isPrefilled && (
          <Trans>
            What you gave us before (profile, verification, last application) is filled in: correct
            anything that has changed.
          </Trans>
        )}
      </Text>
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <FormAlert message={formError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t`Full Name`}
              required
              autoComplete="name"
              {...form.getInputProps('fullName')}
            />
            <TextInput
              label={t`Phone Number`}
              required
              type="tel"
              autoComplete="tel"
              {...form.getInputProps('phone')}
            />
          </SimpleGrid>
          <TextInput
            label={t`Full Address`}
            required
            autoComplete="street-address"
            {...form.getInputProps('address')}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <AmountInput
              label={t`Monthly Salary`}
              description={t`Before tax`}
              currency={currency}
              {...form.getInputProps('monthlySalary')}
            />
            <AmountInput
              label={t`Requested Loan Amount`}
              description={t`In steps of ${step}`}
              currency={currency}
              {...form.getInputProps('amount')}
            />
            <TextInput
              label={t`Repayment Months`}
              required
              inputMode="numeric"
              description={t`1 to ${monthsMax}`}
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
            <BusyButton isBusy={isPending} busyLabel={t`Submitting...`}>
              <Trans>Submit application</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
