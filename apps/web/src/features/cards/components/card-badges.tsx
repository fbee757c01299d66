import {
  type AuthorizationStatus,
  authorizationStatusLabels,
  type CardStatus,
  cardStatusLabels,
} from '@coffer/contracts/cards';
import { Badge } from '@mantine/core';

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
  return (
    <Badge color={cardStatusColors[status]} variant="light" style={badgeStyle}>
      {cardStatusLabels[status]}
    </Badge>
  );
}

export function AuthorizationStatusBadge({ status }: { status: AuthorizationStatus }) {
  return (
    <Badge color={authorizationStatusColors[status]} variant="light" style={badgeStyle}>
      {authorizationStatusLabels[status]}
    </Badge>
  );
}
