import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { BillPaymentHistory } from '../components/bill-payment-history.tsx';
import { PayBillForm } from '../components/pay-bill-form.tsx';

export function PayBillsPage() {
  usePageTitle('Pay Bills');
  const me = useMe();
  return (
    <Stack gap="lg" maw={880}>
      <Stack gap={4}>
        <Title order={1}>Pay Bills</Title>
        <Text c="dimmed">Pay a bill from your wallet. The money leaves your balance at once.</Text>
      </Stack>
      {me ? (
        <PayBillForm me={me} />
      ) : (
        <Center py="xl">
          <Loader aria-label="Loading" />
        </Center>
      )}
      <BillPaymentHistory />
    </Stack>
  );
}
