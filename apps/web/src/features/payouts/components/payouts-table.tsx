import type { StaffPayout } from '@coffer/contracts/payouts';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import {
  type PayoutDecision,
  PayoutDecisionDialog,
  type PayoutDecisionTarget,
} from './payout-decision-dialog.tsx';
import { PayoutDestinationDetails } from './payout-destination-details.tsx';
import { PayoutStatusBadge } from './payout-status-badge.tsx';

/** Mark sent and Reject are an admin's; support is told who the payout waits for. */
function DecisionButtons({
  payout,
  onDecide,
}: {
  payout: StaffPayout;
  onDecide: (payout: StaffPayout, decision: PayoutDecision) => void;
}) {
  const me = useMe();
  if (payout.status !== 'pending') return null;
  if (me?.role !== 'admin') {
    return (
      <Text size="sm" c="dimmed">
        Waiting for an admin
      </Text>
    );
  }
  const what = `withdrawal of ${formatAmountMinor(payout.amountMinor, payout.currency, { currencyDisplay: 'code' })} for ${payout.username}`;
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Button
        size="compact-sm"
        onClick={() => onDecide(payout, 'send')}
        aria-label={`Mark the ${what} sent`}
      >
        Mark sent
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        color="red"
        onClick={() => onDecide(payout, 'reject')}
        aria-label={`Reject the ${what}`}
      >
        Reject
      </Button>
    </Group>
  );
}

function StatusCell({ payout }: { payout: StaffPayout }) {
  return (
    <Stack gap={2} align="flex-start">
      <PayoutStatusBadge status={payout.status} isForStaff />
      {payout.externalReference && <Text size="xs">Ref. {payout.externalReference}</Text>}
      {payout.decidedBy && (
        <Text size="xs" c="dimmed">
          by {payout.decidedBy.username}
          {payout.decisionReason ? `: ${payout.decisionReason}` : ''}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Payouts with what staff need to send them. In the queue each row leads to its customer's
 * payouts; on a customer's page the customer column is left out.
 */
export function PayoutsTable({
  label,
  payouts,
  isCustomerShown,
}: {
  label: string;
  payouts: readonly StaffPayout[];
  isCustomerShown: boolean;
}) {
  const decisionDialog = useDialogTarget<PayoutDecisionTarget>();
  const columns: Column<StaffPayout>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: 'Customer',
            cell: (payout: StaffPayout) => (
              <Anchor
                component={Link}
                to={`/admin/users/${payout.userId}?tab=payouts`}
                fw={600}
                size="sm"
              >
                {payout.username}
              </Anchor>
            ),
          },
        ]
      : []),
    {
      key: 'amount',
      header: 'Amount',
      cell: (payout) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {formatAmountMinor(payout.amountMinor, payout.currency, { currencyDisplay: 'code' })}
          </Text>
          {payout.feeMinor !== 0n && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              + {formatAmountMinor(payout.feeMinor, payout.currency, { currencyDisplay: 'code' })}{' '}
              fee
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'destination',
      header: 'Send to',
      cell: (payout) => <PayoutDestinationDetails destination={payout.destination} />,
    },
    {
      key: 'requested',
      header: 'Requested',
      cell: (payout) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(payout.createdAt)}
        </Text>
      ),
    },
    { key: 'status', header: 'Status', cell: (payout) => <StatusCell payout={payout} /> },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      align: 'right',
      isEmpty: (payout) => payout.status !== 'pending',
      cell: (payout) => (
        <DecisionButtons
          payout={payout}
          onDecide={(decided, decision) => decisionDialog.open({ payout: decided, decision })}
        />
      ),
    },
  ];
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={payouts}
        rowKey={(payout) => payout.id}
        minWidth={900}
      />
      <PayoutDecisionDialog target={decisionDialog.target} {...decisionDialog.dialogProps} />
    </>
  );
}
