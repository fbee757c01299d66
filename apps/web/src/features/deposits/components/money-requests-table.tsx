import type { MoneyRequest } from '@coffer/contracts/admin';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { i18n } = useLingui();
  const amount = formatAmountMinor(request.amountMinor, request.currency, {
    currencyDisplay: 'code',
  });
  const { label, color, variant, names } = decisionButtons[decision];
  return (
    <Button
      size="compact-sm"
      variant={variant}
      color={color}
      onClick={() => onDecide(request, decision)}
      aria-label={i18n._(names[request.direction](amount, request.username))}
    >
      {i18n._(label)}
    </Button>
  );
}

type ButtonName = (amount: string, username: string) => MessageDescriptor;

/** Each button, and its accessible name for each kind of request, as whole sentences. */
const decisionButtons: Record<
  Decision,
  {
    label: MessageDescriptor;
    color: string | undefined;
    variant: string;
    names: Record<MoneyRequest['direction'], ButtonName>;
  }
> = {
  approve: {
    label: msg`Approve`,
    color: undefined,
    variant: 'filled',
    names: {
      deposit: (amount, username) => msg`Approve the deposit of ${amount} for ${username}`,
      debit_adjustment: (amount, username) =>
        msg`Approve the debit adjustment of ${amount} for ${username}`,
    },
  },
  reject: {
    label: msg`Reject`,
    color: 'red',
    variant: 'default',
    names: {
      deposit: (amount, username) => msg`Reject the deposit of ${amount} for ${username}`,
      debit_adjustment: (amount, username) =>
        msg`Reject the debit adjustment of ${amount} for ${username}`,
    },
  },
  cancel: {
    label: msg`Cancel`,
    color: 'red',
    variant: 'default',
    names: {
      deposit: (amount, username) => msg`Cancel the deposit of ${amount} for ${username}`,
      debit_adjustment: (amount, username) =>
        msg`Cancel the debit adjustment of ${amount} for ${username}`,
    },
  },
};

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
        <Trans>Waiting for a second admin</Trans>
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
  const { t } = useLingui();
  // A cancelled request was decided by its maker.
  const decider = (request.checker ?? (request.status === 'cancelled' ? request.maker : null))
    ?.username;
  const { decisionReason } = request;
  const checkers = request.eligibleCheckers.map((checker) => checker.username).join(', ');
  return (
    <Stack gap={2} align="flex-start">
      <MoneyRequestStatusBadge status={request.status} />
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
      {request.status === 'pending_approval' && (
        <Text size="xs" c="dimmed">
          {request.eligibleCheckers.length === 0
            ? t`No admin may approve it yet`
            : t`May approve: ${checkers}`}
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
  const { t, i18n } = useLingui();
  const decisionDialog = useDialogTarget<DecisionTarget>();
  const columns: Column<MoneyRequest>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: t`Customer`,
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
      header: t`Amount`,
      cell: (request) => (
        <Stack gap={0}>
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
            {formatAmountMinor(signedAmountMinor(request), request.currency, {
              currencyDisplay: 'code',
              signDisplay: 'exceptZero',
            })}
          </Text>
          <Text size="xs" c="dimmed">
            {i18n._(moneyRequestDirectionLabels[request.direction])}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'reference',
      header: t`Reference`,
      isEmpty: (request) => request.externalReference === null,
      cell: (request) => request.externalReference ?? '—',
    },
    { key: 'reason', header: t`Reason`, cell: (request) => request.reason },
    {
      key: 'maker',
      header: t`Prepared`,
      cell: (request) => (
        <Stack gap={0}>
          <Text size="sm">{request.maker.username}</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(request.createdAt)}
          </Text>
        </Stack>
      ),
    },
    { key: 'status', header: t`Status`, cell: (request) => <StatusCell request={request} /> },
    {
      key: 'actions',
      header: t`Actions`,
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
