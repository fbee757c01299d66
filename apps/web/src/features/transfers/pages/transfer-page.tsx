import { Trans, useLingui } from '@lingui/react/macro';
import { Card, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { Landmark, Send } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { PayoutForm } from '../../payouts/index.ts';
import classes from '../components/direction.module.css';
import { QuickPayForm } from '../components/quick-pay-form.tsx';
import { RecentTransfers } from '../components/recent-transfers.tsx';

type TransferTab = 'quick-pay' | 'withdraw';

/** `?tab=withdraw` opens the payout tab, so links (and the back button) land on it. */
function tabOf(searchParams: URLSearchParams): TransferTab {
  return searchParams.get('tab') === 'withdraw' ? 'withdraw' : 'quick-pay';
}

export function TransferPage() {
  const { t } = useLingui();
  usePageTitle(t`Transfer`);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(searchParams);

  return (
    <Stack gap="lg" maw={1040}>
      <Title order={1}>
        <Trans>Transfer and withdraw</Trans>
      </Title>
      <Tabs
        value={tab}
        onChange={(value) =>
          setSearchParams(value === 'withdraw' ? { tab: 'withdraw' } : {}, {
            replace: true,
            preventScrollReset: true,
          })
        }
        keepMounted={false}
      >
        <Tabs.List mb="lg">
          <Tabs.Tab
            value="quick-pay"
            leftSection={<Send size={16} aria-hidden className={classes.mirroredInRtl} />}
          >
            <Trans>Send to a Coffer customer</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="withdraw" leftSection={<Landmark size={16} aria-hidden />}>
            <Trans>Withdraw to an external account</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="quick-pay">
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            <Card withBorder padding="lg">
              <Text c="dimmed" size="sm" mb="md">
                <Trans>
                  Quick Pay sends money at once to another Coffer customer with an account in the
                  currency you send.
                </Trans>
              </Text>
              <QuickPayForm />
            </Card>
            <RecentTransfers />
          </SimpleGrid>
        </Tabs.Panel>
        <Tabs.Panel value="withdraw">
          <PayoutForm />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
