import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { useIsSandbox } from '../../../components/sandbox-banner.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { walletQueryOptions } from '../api.ts';
import { FundingDetailsCard } from '../components/funding-details-card.tsx';
import { RecentDepositsCard } from '../components/recent-deposits-card.tsx';
import { TestMoneyCard } from '../components/test-money-card.tsx';

/** PRODUCT.md "Add money": how to fund the wallet, recent deposits, and sandbox test money. */
export function AddMoneyPage() {
  const { t } = useLingui();
  usePageTitle(t`Add money`);
  const wallet = useQuery(walletQueryOptions);
  const isSandbox = useIsSandbox();
  return (
    <Stack gap="lg" maw={880}>
      <Title order={1}>
        <Trans>Add money</Trans>
      </Title>
      {wallet.isPending && (
        <Center py="xl">
          <Loader aria-label={t`Loading your account`} />
        </Center>
      )}
      {wallet.isError && (
        <LoadFailed
          title={t`Your account did not load`}
          error={wallet.error}
          isRetrying={wallet.isFetching}
          onRetry={() => wallet.refetch()}
        />
      )}
      {wallet.data && (
        <>
          <FundingDetailsCard wallet={wallet.data} />
          {isSandbox && <TestMoneyCard />}
        </>
      )}
      <RecentDepositsCard />
    </Stack>
  );
}
