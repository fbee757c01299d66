import { Trans, useLingui } from '@lingui/react/macro';
import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { AddPayeeForm } from '../components/add-payee-form.tsx';
import { PayeeList } from '../components/payee-list.tsx';

export function PayeesPage() {
  const { t } = useLingui();
  usePageTitle(t`Payees`);
  return (
    <Stack gap="lg" maw={1040}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Payees</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Save who and what you pay. Quick Pay, Pay Bills and Withdraw offer them first. Adding a
            payee asks for a verification code, and we email you each time one is added.
          </Trans>
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <PayeeList />
        <AddPayeeForm />
      </SimpleGrid>
    </Stack>
  );
}
