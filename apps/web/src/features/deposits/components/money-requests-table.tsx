import type { MoneyRequest } from '@coffer/contracts/admin';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMe } from '../../../lib/session.ts';
import { MoneyRequestStatusBadge, moneyRequestDirectionLabels } from './money-request-badges.tsx';
import {
  type Decision,
  type DecisionTarget,
  MoneyRequestDecisionDialog,
} from './money-request-decision-dialog.tsx';

function DecisionButton({
  request,
  decision,
  onDecide,
}: {
  request: MoneyRequest;
  decision: Decision;
  onDecide: (request: MoneyRequest, decision: Decision) => void;
}) {
  const what = `${moneyRequestDirectionLabels[request.direction].toLowerCase()} of ${formatAmountMinor(request.amountMinor, request.currency, { currencyDisplay: 'code' })} for ${request.username}`;
  const { label, color, variant } = decisionButtons[decision];
  return (
    <Button
      size="compact-sm"
      variant={variant}
      color={color}
      onClick={() => onDecide(request, decision)}
      aria-label={`${label} the ${what}`}
    >
      {label}
    </Button>
  );
}

const decisionButtons = {
  approve: { label: 'Approve', color: undefined, variant: 'filled' },
  reject: { label: 'Reject', color: 'red', variant: 'default' },
  cancel: { label: 'Cancel', color: 'red', variant: 'default' },
} as const;

/**
 * Approve and Reject for an admin who may approve the request, Cancel for its
 * maker; everyone else is told it waits. The server refuses them either way.
 */
function DecisionButtons({
  request,
  onDecide,
}: {
  request: MoneyRequest;
  onDecide: (request: MoneyRequest, decision: Decision) => void;
}) {
  const me = useMe();
  if (request.status !== 'pending_approval') return null;
  const decisions: Decision[] =
    me?.id === request.maker.id
      ? ['cancel']
      : request.eligibleCheckers.some((checker) => checker.id === me?.id)
        ? ['approve', 'reject']
        : [];
  if (decisions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Waiting for a second admin
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {decisions.map((decision) => (
        <DecisionButton key={decision} request={request} decision={decision} onDecide={onDecide} />
      ))}
    </Group>
  );
}

/** What the request does to the balance: a deposit adds, a debit adjustment takes away. */
function signedAmountMinor(request: MoneyRequest): bigint {
  const { amountMinor } = request;
  return request.direction === 'deposit' ? amountMinor : -amountMinor;
}

function StatusCell({ request }: { request: MoneyRequest }) {
  // A cancelled request was decided by its maker.
  const decider = request.checker ?? (request.status === 'cancelled' ? request.maker : null);
  return (
    <Stack gap={2} align="flex-start">
      <MoneyRequestStatusBadge status={request.status} />
      {decider && (
        <Text size="xs" c="dimmed">
          by {decider.username}
          {request.decisionReason ? `: ${request.decisionReason}` : ''}
        </Text>
      )}
      {request.status === 'pending_approval' && (
        <Text size="xs" c="dimmed">
          {request.eligibleCheckers.length === 0
            ? 'No admin may approve it yet'
            : `May approve: ${request.eligibleCheckers.map((checker) => checker.username).join(', ')}`}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Deposits and debit adjustments with their approval state. In the queue each row leads to
 * its customer; on a customer's page the customer column is left out.
 */
export function MoneyRequestsTable({
  label,
  requests,
  isCustomerShown,
}: {
  label: string;
  requests: readonly MoneyRequest[];
  isCustomerShown: boolean;
}) {
  const decisionDialog = useDialogTarget<DecisionTarget>();
  const columns: Column<MoneyRequest>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: 'Customer',
            cell: (request: MoneyRequest) => (
              <Anchor component={Link} to={`/admin/users/${request.userId}`} fw={600} size="sm">
                {request.username}
              </Anchor>
            ),
          },
        ]
      : []),
    {
      key: 'amount',
      header: 'Amount',
      cell: (request) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {formatAmountMinor(signedAmountMinor(request), request.currency, {
              currencyDisplay: 'code',
              signDisplay: 'exceptZero',
            })}
          </Text>
          <Text size="xs" c="dimmed">
            {moneyRequestDirectionLabels[request.direction]}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'reference',
      header: 'Reference',
      isEmpty: (request) => request.externalReference === null,
      cell: (request) => request.externalReference ?? '—',
    },
    { key: 'reason', header: 'Reason', cell: (request) => request.reason },
    {
      key: 'maker',
      header: 'Prepared',
      cell: (request) => (
        <Stack gap={0}>
          <Text size="sm">{request.maker.username}</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(request.createdAt)}
          </Text>
        </Stack>
      ),
    },
    { key: 'status', header: 'Status', cell: (request) => <StatusCell request={request} /> },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      align: 'right',
      cell: (request) => (
        <DecisionButtons
          request={request}
          onDecide={(decided, decision) => decisionDialog.open({ request: decided, decision })}
        />
      ),
    },
  ];
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={requests}
        rowKey={(request) => request.id}
        minWidth={960}
      />
      <MoneyRequestDecisionDialog target={decisionDialog.target} {...decisionDialog.dialogProps} />
    </>
  );
}
