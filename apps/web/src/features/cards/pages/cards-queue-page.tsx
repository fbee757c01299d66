import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { QueuePage } from '../../../components/queue-page.tsx';
import { cardQueueQueryOptions } from '../api.ts';
import { StaffCardsTable } from '../components/staff-cards-table.tsx';

/** Card requests waiting for an admin, oldest first (PRODUCT.md "Admin: queues"). */
export function CardsQueuePage() {
  const { t } = useLingui();
  return (
    <QueuePage
      title={t`Cards queue`}
      description={t`Virtual card requests, oldest first. Issuing charges the held fee and creates the card at the issuer; declining gives the fee back, with a reason the customer sees.`}
      emptyDescription={t`Every card request has been decided.`}
      queue={useQuery(cardQueueQueryOptions)}
    >
      {(cards) => (
        <StaffCardsTable
          label={t`Card requests waiting for a decision`}
          cards={cards}
          isCustomerShown
        />
      )}
    </QueuePage>
  );
}
