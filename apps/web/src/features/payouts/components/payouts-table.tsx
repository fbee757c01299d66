import type { StaffPayout } from '@coffer/contracts/payouts';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const me = useMe();
  if (payout.status !== 'pending') return null;
  if (me?.role !== 'admin') {
    return (
      <Text size="sm" c="dimmed">
        <Trans>Waiting for an admin</Trans>
      </Text>
    );
  }
  const amount = formatAmountMinor(payout.amountMinor, payout.currency, {
    currencyDisplay: 'code',
  });
  const { username } = payout;
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Button
        size="compact-sm"
        onClick={() => onDecide(payout, 'send')}
        aria-label={t`Mark the withdrawal of ${amount} for ${username} sent`}
      >
        <Trans>Mark sent</Trans>
      </Button>
      <Button
        size="compact-sm"
        variant="default"
        color="red"
        onClick={() => onDecide(payout, 'reject')}
        aria-label={t`Reject the withdrawal of ${amount} for ${username}`}
      >
        <Trans>Reject</Trans>
      </Button>
    </Group>
  );
}

function StatusCell({ payout }: { payout: StaffPayout }) {
  const { externalReference, decisionReason } = payout;
  const decider = payout.decidedBy?.username;
  return (
    <Stack gap={2} align="flex-start">
      <PayoutStatusBadge status={payout.status} isForStaff />
      {externalReference && (
        <Text size="xs">
          <Trans>Ref. {externalReference}</Trans>
        </Text>
      )}
      {decider && (
        <Text size="xs" c="dimmed">
          {decisionReason ? (
            <Trans>
              by {decider}: {decisionReason}
            </Trans>
          ) : (
            <Trans>by {decider}</Trans>
          )}
        </Text>
      )}
    </Stack>
  );
}

function FeeLine({ payout }: { payout: StaffPayout }) {
  const fee = formatAmountMinor(payout.feeMinor, payout.currency, { currencyDisplay: 'code' });
  return (
    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
      <Trans>+ {fee} fee</Trans>
    </Text>
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
  const { t } = useLingui();
  const decisionDialog = useDialogTarget<PayoutDecisionTarget>();
  const columns: Column<StaffPayout>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: t`Customer`,
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
      header: t`Amount`,
      cell: (payout) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {formatAmountMinor(payout.amountMinor, payout.currency, { currencyDisplay: 'code' })}
          </Text>
          {payout.feeMinor !== 0n && <FeeLine payout={payout} />}
        </Stack>
      ),
    },
    {
      key: 'destination',
      header: t`Send to`,
      cell: (payout) => <PayoutDestinationDetails destination={payout.destination} />,
    },
    {
      key: 'requested',
      header: t`Requested`,
      cell: (payout) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(payout.createdAt)}
        </Text>
      ),
    },
    { key: 'status', header: t`Status`, cell: (payout) => <StatusCell payout={payout} /> },
    {
      key: 'actions',
      header: t`Actions`,
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
