import type { Me } from '@coffer/contracts/auth';
import type { Loan } from '@coffer/contracts/loans';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  msg`Loading the form`,
);

/**
 * Why this member of staff cannot pay the loan out, or null when they can: the one who
 * asked for a second admin waits for another, and only an admin is a second admin (the
 * server holds the same rules in approvals/).
 */
function disburseBlockedReason(loan: Loan, me: Me | null | undefined): MessageDescriptor | null {
  const requestedBy = loan.disbursementRequestedBy;
  if (!requestedBy) return null;
  if (requestedBy.id === me?.id) return msg`You asked: a second admin pays it out.`;
  if (me?.role !== 'admin') return msg`Waiting for an admin to pay it out.`;
  return null;
}

/** The loans queue's "to disburse" list: approved loans, with the action where they wait. */
export function ToDisburseTable({ loans }: { loans: Loan[] }) {
  const { t, i18n } = useLingui();
  const me = useMe();
  const dialog = useDialogTarget<Loan>();
  const money = (loan: Loan) => formatAmountMinor(loan.amountMinor, loan.currency);
  const columns: Column<Loan>[] = [
    {
      key: 'customer',
      header: t`Customer`,
      cell: (loan) => (
        <Anchor component={Link} to={`${adminUserPath(loan.userId)}?tab=loans`}>
          {loan.username}
        </Anchor>
      ),
    },
    { key: 'amount', header: t`Amount`, cell: money },
    { key: 'months', header: t`Months`, cell: (loan) => String(loan.months) },
    {
      key: 'approved',
      header: t`Approved`,
      cell: (loan) => (loan.decidedAt ? formatDate(loan.decidedAt) : ''),
    },
    {
      key: 'waiting',
      header: t`Second admin`,
      cell: (loan) => {
        const requester = loan.disbursementRequestedBy?.username;
        return requester ? t`Asked by ${requester}` : '';
      },
    },
    {
      key: 'actions',
      header: t`Actions`,
      isHeaderHidden: true,
      cell: (loan) => {
        const blocked = disburseBlockedReason(loan, me);
        return blocked ? (
          <Text size="sm" c="dimmed">
            {i18n._(blocked)}
          </Text>
        ) : (
          <Button size="xs" onClick={(event) => dialog.open(loan, event.currentTarget)}>
            <Trans>Disburse</Trans>
          </Button>
        );
      },
    },
  ];
  return (
    <>
      <DataTable
        label={t`Loans to disburse`}
        columns={columns}
        rows={loans}
        rowKey={(loan) => loan.id}
      />
      <TargetModal {...dialog.dialogProps} target={dialog.target} title={t`Disburse loan`}>
        {(loan) => <DisburseDialogForm loan={loan} onClose={dialog.dialogProps.onClose} />}
      </TargetModal>
    </>
  );
}
