import { type CardOverview, cardLevelMin } from '@coffer/contracts/cards';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Card,
  Center,
  Group,
  List,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ShieldQuestion } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { useIsSandbox } from '../../../components/sandbox-banner.tsx';
import { WalletChoice } from '../../../components/wallet-choice.tsx';
import { formatAmountMinor } from '../../../lib/money.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { payingWalletOf, useChoosableWallets, walletNameOf } from '../../../lib/wallets.ts';
import { cardOverviewQueryOptionsFor } from '../api.ts';
import { CancelCardButton } from '../components/cancel-card-button.tsx';
import { CardActivity } from '../components/card-activity.tsx';
import { CardMockup } from '../components/card-mockup.tsx';
import { CardSpending } from '../components/card-spending.tsx';
import { CardStatusBox } from '../components/card-status-box.tsx';
import { FreezeCardButton } from '../components/freeze-card-button.tsx';
import { RequestCardButton } from '../components/request-card-button.tsx';
import { SimulatePurchaseCard } from '../components/simulate-purchase-card.tsx';

/** The card terms from the fee schedule: shown before anything is asked for. */
function CardTerms({ terms }: { terms: CardOverview['terms'] }) {
  const fee = formatAmountMinor(terms.creationFeeMinor, terms.currency);
  const weeklyLimit = formatAmountMinor(terms.weeklyLimitMinor, terms.currency);
  return (
    <List size="sm" spacing={4}>
      <List.Item>
        {terms.creationFeeMinor === 0n ? (
          <Trans>Creation fee: free</Trans>
        ) : (
          <Trans>
            Creation fee: <bdi>{fee}</bdi>
          </Trans>
        )}
      </List.Item>
      <List.Item>
        <Trans>
          Weekly spending limit: <bdi>{weeklyLimit}</bdi>
        </Trans>
      </List.Item>
      <List.Item>
        <Trans>Purchases are paid from your wallet's available balance.</Trans>
      </List.Item>
    </List>
  );
}

function CardPanel({
  overview,
  walletId,
  onWalletChange,
}: {
  overview: CardOverview;
  /** The wallet a new card would be funded from; '' for the main wallet. */
  walletId: string;
  onWalletChange: (walletId: string) => void;
}) {
  const { card, terms, spending } = overview;
  const { t } = useLingui();
  const wallets = useChoosableWallets();
  const fundingWallet = payingWalletOf(wallets, walletId);
  const isLive = card?.status === 'issued' || card?.status === 'frozen';
  const mayRequest = !card || card.status === 'declined' || card.status === 'closed';
  return (
    <Card withBorder padding="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <CardMockup card={isLive ? card : null} />
        <Stack gap="md">
          {card && <CardStatusBox card={card} />}
          {spending && card && <CardSpending spending={spending} currency={card.currency} />}
          {mayRequest && (
            <>
              <Title order={2} size="h4">
                <Trans>Card terms</Trans>
              </Title>
              {wallets && (
                <WalletChoice
                  wallets={wallets}
                  walletId={walletId}
                  description={t`The card pays from this wallet, in its currency, for as long as it lives.`}
                  onChange={onWalletChange}
                />
              )}
              <CardTerms terms={terms} />
              {overview.level < cardLevelMin ? (
                <Alert color="gray" icon={<ShieldQuestion size={18} aria-hidden />}>
                  <Trans>
                    Virtual cards need account level {cardLevelMin}.{' '}
                    <Anchor component={Link} to="/kyc" size="sm">
                      Verify your identity
                    </Anchor>{' '}
                    to reach it; verification is free.
                  </Trans>
                </Alert>
              ) : (
                <Group>
                  <RequestCardButton
                    terms={terms}
                    walletId={walletId}
                    fromWallet={fundingWallet && wallets ? walletNameOf(fundingWallet) : null}
                  />
                </Group>
              )}
            </>
          )}
          {isLive && card && (
            <Group>
              <FreezeCardButton card={card} />
              <CancelCardButton card={card} />
            </Group>
          )}
          {card?.status === 'requested' && (
            <Group>
              <CancelCardButton card={card} />
            </Group>
          )}
        </Stack>
      </SimpleGrid>
    </Card>
  );
}

export function CardsPage() {
  const { t } = useLingui();
  usePageTitle(t`Virtual cards`);
  const isSandbox = useIsSandbox();
  // '' : the main wallet, as for a customer who holds only that one.
  const [walletId, setWalletId] = useState('');
  const overview = useQuery(cardOverviewQueryOptionsFor(walletId === '' ? null : walletId));
  const card = overview.data?.card;
  const isLive = card?.status === 'issued' || card?.status === 'frozen';
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Virtual cards</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            A virtual card pays online from your wallet. Only its last four digits are ever shown
            here.
          </Trans>
        </Text>
      </Stack>
      {overview.isPending ? (
        <Center py="xl">
          <Loader aria-label={t`Loading your card`} />
        </Center>
      ) : overview.isError ? (
        <LoadFailed
          title={t`Your card did not load`}
          error={overview.error}
          isRetrying={overview.isFetching}
          onRetry={() => overview.refetch()}
        />
      ) : (
        <>
          <CardPanel overview={overview.data} walletId={walletId} onWalletChange={setWalletId} />
          {isSandbox && isLive && card && <SimulatePurchaseCard currency={card.currency} />}
          {card && isLive && <CardActivity cardId={card.id} />}
        </>
      )}
    </Stack>
  );
}
