import type { Loan } from '@coffer/contracts/loans';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { customerLoansQueryOptions } from '../api.ts';
import { EligibilityForm } from './eligibility-form.tsx';
import { LoanFigure } from './loan-figure.tsx';
import { LoanRequestsTable } from './loan-requests-table.tsx';
import { LoanScheduleTable } from './loan-schedule-table.tsx';
import { LoanStatusBadge } from './loan-status-badge.tsx';
import { useRateText } from './rate-text.ts';

type Repayment = Loan['repayments'][number];

function RepaymentsTable({ loan }: { loan: Loan }) {
  const { t } = useLingui();
  if (loan.repayments.length === 0)
    return (
      <Text size="sm" c="dimmed">
        <Trans>No repayments yet.</Trans>
      </Text>
    );
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const columns: Column<Repayment>[] = [
    { key: 'date', header: t`Date`, cell: (row) => formatDateTime(row.createdAt) },
    { key: 'amount', header: t`Amount`, align: 'right', cell: (row) => money(row.amountMinor) },
    {
      key: 'principal',
      header: t`Principal`,
      align: 'right',
      cell: (row) => money(row.principalMinor),
    },
    {
      key: 'interest',
      header: t`Interest`,
      align: 'right',
      cell: (row) => money(row.interestMinor),
    },
    {
      key: 'how',
      header: t`How`,
      cell: (row) => (row.isAutomatic ? t`Automatic collection` : t`Customer`),
    },
  ];
  return (
    <DataTable
      label={t`Repayments`}
      columns={columns}
      rows={loan.repayments}
      rowKey={(row) => row.id}
      minWidth={560}
    />
  );
}

function LoanCard({ loan }: { loan: Loan }) {
  const { t } = useLingui();
  const rateText = useRateText();
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const amount = money(loan.amountMinor);
  const months = loan.months;
  const rate = rateText(loan.annualRateBp);
  const requester = loan.disbursementRequestedBy?.username;
  const decisionReason = loan.decisionReason;
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group gap="sm">
          <Title order={3}>
            <Trans>
              <bdi>{amount}</bdi> over <Plural value={months} one="# month" other="# months" /> at{' '}
              <bdi>{rate}</bdi>
            </Trans>
          </Title>
          <LoanStatusBadge status={loan.status} isOverdue={loan.isOverdue} />
        </Group>
        {requester && loan.status === 'approved' && (
          <Text size="sm" c="yellow.9">
            <Trans>
              Disbursement requested by {requester}: a second admin disburses it from Account
              Actions.
            </Trans>
          </Text>
        )}
        {decisionReason && (
          <Text size="sm">
            <Trans>Decision: {decisionReason}</Trans>
          </Text>
        )}
        {loan.instalments.length > 0 && (
          <>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
              <LoanFigure
                label={t`Outstanding principal`}
                value={money(loan.outstandingPrincipalMinor)}
              />
              <LoanFigure
                label={t`Due now`}
                value={money(loan.dueNowMinor)}
                isAlert={loan.isOverdue}
              />
              <LoanFigure label={t`Payoff today`} value={money(loan.payoffMinor)} />
              <LoanFigure
                label={t`Automatic repayment`}
                value={loan.isAutoRepayOn ? t`On` : t`Off`}
              />
            </SimpleGrid>
            <LoanScheduleTable loan={loan} />
            <Title order={4}>
              <Trans>Repayments</Trans>
            </Title>
            <RepaymentsTable loan={loan} />
          </>
        )}
      </Stack>
    </Card>
  );
}

/** The customer page's loans: eligibility, pending requests to decide, and every loan. */
export function CustomerLoansTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const overview = useQuery(customerLoansQueryOptions(userId));
  if (overview.isPending) return <LoadingState label={t`Loading loans`} />;
  if (overview.isError) {
    return (
      <LoadFailed
        title={t`The loans did not load`}
        error={overview.error}
        isRetrying={overview.isFetching}
        onRetry={() => overview.refetch()}
      />
    );
  }
  const pending = overview.data.loans.filter((loan) => loan.status === 'pending');
  const others = overview.data.loans.filter((loan) => loan.status !== 'pending');
  const askedAt = overview.data.assessmentRequestedAt
    ? formatDateTime(overview.data.assessmentRequestedAt)
    : null;
  return (
    <Stack gap="lg">
      {askedAt && (
        <Text size="sm" c="yellow.9">
          <Trans>
            The customer asked for an assessment on {askedAt}: setting the eligibility answers it.
          </Trans>
        </Text>
      )}
      <EligibilityForm
        userId={userId}
        currency={overview.data.currency}
        eligibility={overview.data.eligibility}
      />
      <Stack gap="sm">
        <Title order={3}>
          <Trans>Pending Loan Requests</Trans>
        </Title>
        {pending.length === 0 ? (
          <NothingFound title={t`No pending loan requests`} />
        ) : (
          <LoanRequestsTable loans={pending} />
        )}
      </Stack>
      {others.map((loan) => (
        <LoanCard key={loan.id} loan={loan} />
      ))}
    </Stack>
  );
}
