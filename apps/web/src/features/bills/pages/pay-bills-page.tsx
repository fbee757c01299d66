import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { BillPaymentHistory } from '../components/bill-payment-history.tsx';
import { PayBillForm } from '../components/pay-bill-form.tsx';

export function PayBillsPage() {
  const { t } = useLingui();
  usePageTitle(t`Pay Bills`);
  const me = useMe();
  return (
    <Stack gap="lg" maw={880}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Pay Bills</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Pay a bill from your wallet. The money leaves your balance at once.</Trans>
        </Text>
      </Stack>
      {me ? (
        <PayBillForm me={me} />
      ) : (
        <Center py="xl">
          <Loader aria-label={t`Loading`} />
        </Center>
      )}
      <BillPaymentHistory />
    </Stack>
  );
}
