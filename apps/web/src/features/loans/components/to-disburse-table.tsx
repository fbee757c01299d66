import type { Me } from '@coffer/contracts/auth';
import type { Loan } from '@coffer/contracts/loans';
import { Anchor, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { onDemand } from '../../../components/on-demand.tsx';
import { TargetModal } from '../../../components/target-modal.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { adminUserPath } from '../../../lib/back-office.ts';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';

// Loaded when the dialog first opens: the money action and its form stay out of the
// queue's first load (apps/web/budgets.json).
const DisburseDialogForm = onDemand(
  async () => (await import('./disburse-dialog-form.tsx')).DisburseForm,
  'Loading the form',
);

/**
 * Why this member of staff cannot pay the loan out, or null when they can: the one who
 * asked for a second admin waits for another, and only an admin is a second admin (the
 * server holds the same rules in approvals/).
 */
function disburseBlockedReason(loan: Loan, me: Me | null | undefined): string | null {
  const requestedBy = loan.disbursementRequestedBy;
  if (!requestedBy) return null;
  if (requestedBy.id === me?.id) return 'You asked: a second admin pays it out.';
  if (me?.role !== 'admin') return 'Waiting for an admin to pay it out.';
  return null;
}

/** The loans queue's "to disburse" list: approved loans, with the action where they wait. */
export function ToDisburseTable({ loans }: { loans: Loan[] }) {
  const me = useMe();
  const dialog = useDialogTarget<Loan>();
  const money = (loan: Loan) => formatAmountMinor(loan.amountMinor, loan.currency);
  const columns: Column<Loan>[] = [
    {
      key: 'customer',
      header: 'Customer',
      cell: (loan) => (
        <Anchor component={Link} to={`${adminUserPath(loan.userId)}?tab=loans`}>
          {loan.username}
        </Anchor>
      ),
    },
    { key: 'amount', header: 'Amount', cell: money },
    { key: 'months', header: 'Months', cell: (loan) => String(loan.months) },
    {
      key: 'approved',
      header: 'Approved',
      cell: (loan) => (loan.decidedAt ? formatDate(loan.decidedAt) : ''),
    },
    {
      key: 'waiting',
      header: 'Second admin',
      cell: (loan) =>
        loan.disbursementRequestedBy ? `Asked by ${loan.disbursementRequestedBy.username}` : '',
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      cell: (loan) => {
        const blocked = disburseBlockedReason(loan, me);
        return blocked ? (
          <Text size="sm" c="dimmed">
            {blocked}
          </Text>
        ) : (
          <Button size="xs" onClick={(event) => dialog.open(loan, event.currentTarget)}>
            Disburse
          </Button>
        );
      },
    },
  ];
  return (
    <>
      <DataTable
        label="Loans to disburse"
        columns={columns}
        rows={loans}
        rowKey={(loan) => loan.id}
      />
      <TargetModal {...dialog.dialogProps} target={dialog.target} title="Disburse loan">
        {(loan) => <DisburseDialogForm loan={loan} onClose={dialog.dialogProps.onClose} />}
      </TargetModal>
    </>
  );
}
