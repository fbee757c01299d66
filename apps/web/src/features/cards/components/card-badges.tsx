import type { AuthorizationStatus, CardStatus, DeclineReason } from '@coffer/contracts/cards';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Badge } from '@mantine/core';

/** The words of the status box on /cards (PRODUCT.md). */
const cardStatusLabels: Record<CardStatus, MessageDescriptor> = {
  requested: msg`Requested`,
  issued: msg`Issued`,
  frozen: msg`Frozen`,
  declined: msg`Declined`,
  closed: msg`Closed`,
};

const authorizationStatusLabels: Record<AuthorizationStatus, MessageDescriptor> = {
  approved: msg`Pending`,
  declined: msg`Declined`,
  settled: msg`Completed`,
  reversed: msg`Reversed`,
  expired: msg`Expired`,
};

/** Why the issuer declined a purchase, in the customer's words. */
export const declineReasonLabels: Record<DeclineReason, MessageDescriptor> = {
  unknown_card: msg`Unknown card`,
  card_not_active: msg`The card is not active`,
  card_frozen: msg`The card is frozen`,
  account_frozen: msg`Transactions are disabled on your account`,
  currency_mismatch: msg`The purchase is in another currency`,
  weekly_limit_exceeded: msg`Over the weekly spending limit`,
  insufficient_funds: msg`Insufficient balance`,
};

const cardStatusColors: Record<CardStatus, string> = {
  requested: 'yellow',
  issued: 'green',
  frozen: 'blue',
  declined: 'red',
  closed: 'gray',
};

const authorizationStatusColors: Record<AuthorizationStatus, string> = {
  approved: 'yellow',
  declined: 'red',
  settled: 'green',
  reversed: 'red',
  expired: 'red',
};

const badgeStyle = { flexShrink: 0, minWidth: 'max-content' };

export function CardStatusBadge({ status }: { status: CardStatus }) {
  const { i18n } = useLingui();
  return (
    <Badge color={cardStatusColors[status]} variant="light" style={badgeStyle}>
      {i18n._(cardStatusLabels[status])}
    </Badge>
  );
}

export function AuthorizationStatusBadge({ status }: { status: AuthorizationStatus }) {
  const { i18n } = useLingui();
  return (
    <Badge color={authorizationStatusColors[status]} variant="light" style={badgeStyle}>
      {i18n._(authorizationStatusLabels[status])}
    </Badge>
  );
}
