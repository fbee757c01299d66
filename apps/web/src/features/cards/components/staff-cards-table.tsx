import type { StaffCard } from '@coffer/contracts/cards';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import type { StaffCardAction } from '../api.ts';
import { CardActionDialog, type CardActionTarget } from './card-action-dialog.tsx';
import { CardStatusBadge } from './card-badges.tsx';

/** The actions a card's state allows: decide a request, freeze or unfreeze an issued card. */
const actionsByStatus: Partial<Record<StaffCard['status'], readonly StaffCardAction[]>> = {
  requested: ['issue', 'decline'],
  issued: ['freeze'],
  frozen: ['unfreeze'],
};

/** A card its customer froze (no reason) staff may also freeze, so only staff can lift it. */
function actionsOf(card: StaffCard): readonly StaffCardAction[] | undefined {
  if (card.status === 'frozen' && card.reason === null) return ['freeze', 'unfreeze'];
  return actionsByStatus[card.status];
}

const actionLabels: Record<StaffCardAction, MessageDescriptor> = {
  issue: msg`Issue`,
  decline: msg`Decline`,
  freeze: msg`Freeze`,
  unfreeze: msg`Unfreeze`,
};

/** Cards with what staff need to act on them, for the queue and the customer's tab. */
export function StaffCardsTable({
  label,
  cards,
  isCustomerShown,
}: {
  label: string;
  cards: readonly StaffCard[];
  isCustomerShown: boolean;
}) {
  const { t, i18n } = useLingui();
  const dialog = useDialogTarget<CardActionTarget>();
  const actionName = (action: StaffCardAction, card: StaffCard) => {
    const username = card.username;
    switch (action) {
      case 'issue':
        return t`Issue the card of ${username}`;
      case 'decline':
        return t`Decline the card of ${username}`;
      case 'freeze':
        return t`Freeze the card of ${username}`;
      case 'unfreeze':
        return t`Unfreeze the card of ${username}`;
    }
  };
  const holderLine = (card: StaffCard) => {
    const holderName = card.holderName;
    const expiry = card.expiry;
    return expiry ? t`${holderName}, expires ${expiry}` : holderName;
  };
  const columns: Column<StaffCard>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: t`Customer`,
            cell: (card: StaffCard) => (
              <Anchor
                component={Link}
                to={`/admin/users/${card.userId}?tab=cards`}
                fw={600}
                size="sm"
              >
                {card.username}
              </Anchor>
            ),
          },
        ]
      : []),
    {
      key: 'card',
      header: t`Card`,
      cell: (card) => (
        <Stack gap={0}>
          <Text size="sm" ff="monospace">
            {card.lastFour ? `•••• ${card.lastFour}` : t`Not issued`}
          </Text>
          <Text size="xs" c="dimmed">
            {holderLine(card)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'terms',
      header: t`Fee, weekly limit`,
      cell: (card) => (
        <Text size="sm">
          {formatAmountMinor(card.feeMinor, card.currency)},{' '}
          {formatAmountMinor(card.weeklyLimitMinor, card.currency)}
        </Text>
      ),
    },
    {
      key: 'requested',
      header: t`Requested`,
      cell: (card) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(card.requestedAt)}
        </Text>
      ),
    },
    {
      key: 'status',
      header: t`Status`,
      cell: (card) => (
        <Stack gap={2} align="flex-start">
          <CardStatusBadge status={card.status} />
          {card.reason && (
            <Text size="xs" c="dimmed">
              {card.reason}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'actions',
      header: t`Actions`,
      isHeaderHidden: true,
      align: 'right',
      isEmpty: (card) => !actionsOf(card),
      cell: (card) => (
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          {actionsOf(card)?.map((action) => (
            <Button
              key={action}
              size="compact-sm"
              variant={action === 'issue' ? 'filled' : 'default'}
              onClick={(event) => dialog.open({ card, action }, event.currentTarget)}
              aria-label={actionName(action, card)}
            >
              {i18n._(actionLabels[action])}
            </Button>
          ))}
        </Group>
      ),
    },
  ];
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={cards}
        rowKey={(card) => card.id}
        minWidth={860}
      />
      <CardActionDialog target={dialog.target} {...dialog.dialogProps} />
    </>
  );
}
