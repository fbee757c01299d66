import type { Card } from '@coffer/contracts/cards';
import { Alert, Text } from '@mantine/core';
import { BadgeCheck, CircleAlert, Clock, Snowflake } from 'lucide-react';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

/** Where the customer's card stands: Requested, Issued, Frozen or Declined (with reason). */
export function CardStatusBox({ card }: { card: Card }) {
  const fee = formatAmountMinor(card.feeMinor, card.currency);
  switch (card.status) {
    case 'requested':
      return (
        <Alert color="yellow" icon={<Clock size={18} aria-hidden />} title="Requested">
          You asked for a card on {formatDate(card.requestedAt)}. Staff will review it soon.
          {card.feeMinor > 0n &&
            ` The fee of ${fee} is held on your wallet: it is charged when the card is issued, and given back if it is declined.`}
        </Alert>
      );
    case 'issued':
      return (
        <Alert color="green" icon={<BadgeCheck size={18} aria-hidden />} title="Issued">
          Your card ending {card.lastFour} is ready to use until {card.expiry}.
        </Alert>
      );
    case 'frozen':
      return (
        <Alert color="blue" icon={<Snowflake size={18} aria-hidden />} title="Frozen">
          <Text size="sm">
            Purchases with your card ending {card.lastFour} are declined until it is unfrozen.
          </Text>
          {card.reason && (
            <Text size="sm" mt={4}>
              Frozen by staff: {card.reason}. Contact support to have it unfrozen.
            </Text>
          )}
        </Alert>
      );
    case 'declined':
      return (
        <Alert color="red" icon={<CircleAlert size={18} aria-hidden />} title="Declined">
          <Text size="sm">Your card request was declined: {card.reason}</Text>
          {card.feeMinor > 0n && (
            <Text size="sm" mt={4}>
              The fee of {fee} is back in your available balance. You can ask again below.
            </Text>
          )}
        </Alert>
      );
    case 'closed':
      return (
        <Alert color="gray" icon={<CircleAlert size={18} aria-hidden />} title="Closed">
          Your card ending {card.lastFour} is closed. You can ask for a new one below.
        </Alert>
      );
  }
}
