import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { AccountLevelNotice } from '../../kyc/index.ts';
import { walletQueryOptions } from '../api.ts';
import { BalanceCard } from '../components/balance-card.tsx';
import { BalanceChartCard } from '../components/balance-chart-card.tsx';
import { ShortcutTiles } from '../components/shortcut-tiles.tsx';
import { SpendingCard } from '../components/spending-card.tsx';
import { TransactionsCard } from '../components/transactions-card.tsx';
import { WalletsCard } from '../components/wallets-card.tsx';
import classes from './dashboard-page.module.css';

export function DashboardPage() {
  const { t } = useLingui();
  usePageTitle(t`Dashboard`);
  const me = useMe();
  const username = me?.username || t`User`;
  const wallet = useQuery(walletQueryOptions);
  return (
    <Stack gap="lg" maw={1080}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Hello, {username}</Trans>
        </Title>
        {me && <AccountLevelNotice me={me} />}
      </Stack>
      <div className={classes.summary}>
        <div>
          {wallet.isError ? (
            <LoadFailed
              title={t`Your balance did not load`}
              error={wallet.error}
              isRetrying={wallet.isFetching}
              onRetry={() => wallet.refetch()}
            />
          ) : (
            <BalanceCard wallet={wallet.data} />
          )}
        </div>
        <div>
          <ShortcutTiles />
        </div>
      </div>
      <WalletsCard />
      <div className={classes.charts}>
        <BalanceChartCard />
        <SpendingCard />
      </div>
      <TransactionsCard />
    </Stack>
  );
}
