import type { Card } from '@coffer/contracts/cards';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { BadgeCheck, CircleAlert, Clock, Snowflake } from 'lucide-react';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

/** Where the customer's card stands: Requested, Issued, Frozen or Declined (with reason). */
export function CardStatusBox({ card }: { card: Card }) {
  const { t } = useLingui();
  const fee = formatAmountMinor(card.feeMinor, card.currency);
  const lastFour = card.lastFour;
  const expiry = card.expiry;
  const reason = card.reason;
  switch (card.status) {
    case 'requested': {
      const requestedOn = formatDate(card.requestedAt);
      return (
        <Alert color="yellow" icon={<Clock size={18} aria-hidden />} title={t`Requested`}>
          <Trans>You asked for a card on {requestedOn}. Staff will review it soon.</Trans>
          {card.feeMinor > 0n && ' '}
          {card.feeMinor > 0n && (
            <Trans>
              The fee of <bdi>{fee}</bdi> is held on your wallet: it is charged when the card is
              issued, and given back if it is declined.
            </Trans>
          )}
        </Alert>
      );
    }
    case 'issued':
      return (
        <Alert color="green" icon={<BadgeCheck size={18} aria-hidden />} title={t`Issued`}>
          <Trans>
            Your card ending <bdi>{lastFour}</bdi> is ready to use until <bdi>{expiry}</bdi>.
          </Trans>
        </Alert>
      );
    case 'frozen':
      return (
        <Alert color="blue" icon={<Snowflake size={18} aria-hidden />} title={t`Frozen`}>
          <Text size="sm">
            <Trans>
              Purchases with your card ending <bdi>{lastFour}</bdi> are declined until it is
              unfrozen.
            </Trans>
          </Text>
          {reason && (
            <Text size="sm" mt={4}>
              <Trans>Frozen by staff: {reason}. Contact support to have it unfrozen.</Trans>
            </Text>
          )}
        </Alert>
      );
    case 'declined':
      return (
        <Alert color="red" icon={<CircleAlert size={18} aria-hidden />} title={t`Declined`}>
          <Text size="sm">
            <Trans>Your card request was declined: {reason}</Trans>
          </Text>
          {card.feeMinor > 0n && (
            <Text size="sm" mt={4}>
              <Trans>
                The fee of <bdi>{fee}</bdi> is back in your available balance. You can ask again
                below.
              </Trans>
            </Text>
          )}
        </Alert>
      );
    case 'closed':
      return (
        <Alert color="gray" icon={<CircleAlert size={18} aria-hidden />} title={t`Closed`}>
          <Trans>
            Your card ending <bdi>{lastFour}</bdi> is closed. You can ask for a new one below.
          </Trans>
        </Alert>
      );
  }
}
