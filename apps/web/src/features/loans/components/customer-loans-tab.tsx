import type { Loan } from '@coffer/contracts/loans';
import { formatRateBp } from '@coffer/contracts/loans';
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

type Repayment = Loan['repayments'][number];

function RepaymentsTable({ loan }: { loan: Loan }) {
  if (loan.repayments.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No repayments yet.
      </Text>
    );
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  const columns: Column<Repayment>[] = [
    { key: 'date', header: 'Date', cell: (row) => formatDateTime(row.createdAt) },
    { key: 'amount', header: 'Amount', align: 'right', cell: (row) => money(row.amountMinor) },
    {
      key: 'principal',
      header: 'Principal',
      align: 'right',
      cell: (row) => money(row.principalMinor),
    },
    {
      key: 'interest',
      header: 'Interest',
      align: 'right',
      cell: (row) => money(row.interestMinor),
    },
    {
      key: 'how',
      header: 'How',
      cell: (row) => (row.isAutomatic ? 'Automatic collection' : 'Customer'),
    },
  ];
  return (
    <DataTable
      label="Repayments"
      columns={columns}
      rows={loan.repayments}
      rowKey={(row) => row.id}
      minWidth={560}
    />
  );
}

function LoanCard({ loan }: { loan: Loan }) {
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, loan.currency);
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Group gap="sm">
          <Title order={3}>
            {money(loan.amountMinor)} over {loan.months} months at {formatRateBp(loan.annualRateBp)}
          </Title>
          <LoanStatusBadge status={loan.status} isOverdue={loan.isOverdue} />
        </Group>
        {loan.disbursementRequestedBy && loan.status === 'approved' && (
          <Text size="sm" c="yellow.9">
            Disbursement requested by {loan.disbursementRequestedBy.username}: a second admin
            disburses it from Account Actions.
          </Text>
        )}
        {loan.decisionReason && <Text size="sm">Decision: {loan.decisionReason}</Text>}
        {loan.instalments.length > 0 && (
          <>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
              <LoanFigure
                label="Outstanding principal"
                value={money(loan.outstandingPrincipalMinor)}
              />
              <LoanFigure
                label="Due now"
                value={money(loan.dueNowMinor)}
                isAlert={loan.isOverdue}
              />
              <LoanFigure label="Payoff today" value={money(loan.payoffMinor)} />
              <LoanFigure label="Automatic repayment" value={loan.isAutoRepayOn ? 'On' : 'Off'} />
            </SimpleGrid>
            <LoanScheduleTable loan={loan} />
            <Title order={4}>Repayments</Title>
            <RepaymentsTable loan={loan} />
          </>
        )}
      </Stack>
    </Card>
  );
}

/** The customer page's loans: eligibility, pending requests to decide, and every loan. */
export function CustomerLoansTab({ userId }: { userId: string }) {
  const overview = useQuery(customerLoansQueryOptions(userId));
  if (overview.isPending) return <LoadingState label="Loading loans" />;
  if (overview.isError) {
    return (
      <LoadFailed
        title="The loans did not load"
        error={overview.error}
        isRetrying={overview.isFetching}
        onRetry={() => overview.refetch()}
      />
    );
  }
  const pending = overview.data.loans.filter((loan) => loan.status === 'pending');
  const others = overview.data.loans.filter((loan) => loan.status !== 'pending');
  return (
    <Stack gap="lg">
      {overview.data.assessmentRequestedAt && (
        <Text size="sm" c="yellow.9">
          The customer asked for an assessment on{' '}
          {formatDateTime(overview.data.assessmentRequestedAt)}: setting the eligibility answers it.
        </Text>
      )}
      <EligibilityForm
        userId={userId}
        currency={overview.data.currency}
        eligibility={overview.data.eligibility}
      />
      <Stack gap="sm">
        <Title order={3}>Pending Loan Requests</Title>
        {pending.length === 0 ? (
          <NothingFound title="No pending loan requests" />
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
