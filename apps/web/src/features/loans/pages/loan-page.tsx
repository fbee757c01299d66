import { type LoanOverview, loanLevelMin, loanMessages } from '@coffer/contracts/loans';
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

function RestrictedCard() {
  return (
    <Card withBorder padding="lg">
      <Stack gap="xs">
        <Title order={2}>{loanMessages.restrictedTitle}</Title>
        <Text>{loanMessages.restrictedBody}</Text>
        <Anchor component={Link} to="/kyc">
          Verify your identity
        </Anchor>
      </Stack>
    </Card>
  );
}

/** `/loan`: eligibility, Loan Balance, the active loan, the application form and history. */
export function LoanPage() {
  usePageTitle('Loans');
  const overview = useQuery(loanOverviewQueryOptions);
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>Loans</Title>
        <Text c="dimmed">
          Borrow at the rate shown, repay in equal monthly instalments, pay ahead at no cost.
        </Text>
      </Stack>
      {overview.isPending ? (
        <LoadingState label="Loading your loans" />
      ) : overview.isError ? (
        <LoadFailed
          title="Your loans did not load"
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
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, overview.currency);
  const active = overview.loans.filter((loan) => loan.status === 'disbursed');
  const hasPending = overview.loans.some((loan) => loan.status === 'pending');
  return (
    <>
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <LoanFigure
            label="Approved Eligibility"
            value={
              overview.eligibility
                ? money(overview.eligibility.amountMinor)
                : loanMessages.notAssessed
            }
          />
          <LoanFigure label="Loan Balance" value={money(overview.loanBalanceMinor)} />
        </SimpleGrid>
        {overview.eligibility && (
          <Group justify="space-between" gap="xs" mt="xs">
            <Text size="sm" c="dimmed">
              Set {formatDate(overview.eligibility.setAt)}: {overview.eligibility.reason}
            </Text>
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
        <Alert color="yellow" variant="light" title="No loans in your currency">
          Loans are not offered in {overview.currency} yet.
        </Alert>
      ) : overview.eligibility === null ? (
        <AssessmentRequestCard overview={overview} />
      ) : hasPending ? (
        <Alert color="yellow" variant="light" title="Application under review">
          Your loan application is waiting for a decision. You can apply again once it is decided.
        </Alert>
      ) : (
        <LoanApplicationForm overview={overview} terms={overview.terms} />
      )}
      <Stack gap="sm" component="section" aria-label="Loan History">
        <Title order={2}>Loan History</Title>
        <LoanHistoryTable loans={overview.loans} />
      </Stack>
    </>
  );
}
