import { type LoanOverview, loanLevelMin } from '@coffer/contracts/loans';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { loanOverviewQueryOptions } from '../api.ts';
import { ActiveLoanCard } from '../components/active-loan-card.tsx';
import {
  AskAgainButton,
  AssessmentRequestCard,
  AssessmentRequested,
} from '../components/assessment-request.tsx';
import { LoanApplicationForm } from '../components/loan-application-form.tsx';
import { LoanFigure } from '../components/loan-figure.tsx';
import { LoanHistoryTable } from '../components/loan-history-table.tsx';

/** When staff set the eligibility, and their reason (the customer's words from staff). */
function EligibilityReason({
  eligibility,
}: {
  eligibility: NonNullable<LoanOverview['eligibility']>;
}) {
  const setOn = formatDate(eligibility.setAt);
  const reason = eligibility.reason;
  return (
    <Text size="sm" c="dimmed">
      <Trans>
        Set {setOn}: {reason}
      </Trans>
    </Text>
  );
}

function RestrictedCard() {
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Title order={2}>
          <Trans>Loan Access Restricted</Trans>
        </Title>
        <Text>
          <Trans>Reach level 2 to access loan services</Trans>
        </Text>
        <Anchor component={Link} to="/kyc">
          <Trans>Verify your identity</Trans>
        </Anchor>
      </Stack>
    </Card>
  );
}

/** `/loan`: eligibility, Loan Balance, the active loan, the application form and history. */
export function LoanPage() {
  const { t } = useLingui();
  usePageTitle(t`Loans`);
  const overview = useQuery(loanOverviewQueryOptions);
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Loans</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Borrow at the rate shown, repay in equal monthly instalments, pay ahead at no cost.
          </Trans>
        </Text>
      </Stack>
      {overview.isPending ? (
        <LoadingState label={t`Loading your loans`} />
      ) : overview.isError ? (
        <LoadFailed
          title={t`Your loans did not load`}
          error={overview.error}
          isRetrying={overview.isFetching}
          onRetry={() => overview.refetch()}
        />
      ) : overview.data.level < loanLevelMin ? (
        <RestrictedCard />
      ) : (
        <LoanPageContent overview={overview.data} />
      )}
    </Stack>
  );
}

function LoanPageContent({ overview }: { overview: LoanOverview }) {
  const { t } = useLingui();
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, overview.currency);
  const active = overview.loans.filter((loan) => loan.status === 'disbursed');
  const hasPending = overview.loans.some((loan) => loan.status === 'pending');
  const currency = overview.currency;
  return (
    <>
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <LoanFigure
            label={t`Approved Eligibility`}
            value={
              overview.eligibility ? money(overview.eligibility.amountMinor) : t`Not yet assessed`
            }
          />
          <LoanFigure label={t`Loan Balance`} value={money(overview.loanBalanceMinor)} />
        </SimpleGrid>
        {overview.eligibility && (
          <Group justify="space-between" gap="xs" mt="xs">
            <EligibilityReason eligibility={overview.eligibility} />
            {overview.terms && !overview.assessmentRequestedAt && <AskAgainButton />}
          </Group>
        )}
      </Card>
      {overview.eligibility && overview.assessmentRequestedAt && (
        <AssessmentRequested requestedAt={overview.assessmentRequestedAt} />
      )}
      {active.map((loan) => (
        <ActiveLoanCard key={loan.id} loan={loan} />
      ))}
      {overview.terms === null ? (
        <Alert color="yellow" variant="light" title={t`No loans in your currency`}>
          <Trans>Loans are not offered in {currency} yet.</Trans>
        </Alert>
      ) : overview.eligibility === null ? (
        <AssessmentRequestCard overview={overview} />
      ) : hasPending ? (
        <Alert color="yellow" variant="light" title={t`Application under review`}>
          <Trans>
            Your loan application is waiting for a decision. You can apply again once it is decided.
          </Trans>
        </Alert>
      ) : (
        <LoanApplicationForm overview={overview} terms={overview.terms} />
      )}
      <Stack gap="sm" component="section" aria-label={t`Loan History`}>
        <Title order={2}>
          <Trans>Loan History</Trans>
        </Title>
        <LoanHistoryTable loans={overview.loans} />
      </Stack>
    </>
  );
}
