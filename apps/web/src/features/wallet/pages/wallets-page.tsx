import type { WalletList } from '@coffer/contracts/wallets';
import { openWalletBodySchema } from '@coffer/contracts/wallets';
import { Alert, Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { openWallet, walletsQueryOptions } from '../api.ts';
import { EstimatedTotal, WalletsTable } from '../components/wallets-table.tsx';

function OpenWalletForm({ wallets }: { wallets: WalletList }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: openWallet });
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: openWalletBodySchema,
    initialValues: { currency: wallets.openableCurrencies[0] ?? '' },
    mutation,
    onSuccess: async (opened) => {
      showSuccessToast(`Your ${opened.currency} wallet is open: account ${opened.accountNumber}.`);
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
    otherFailureMessage: 'The wallet could not be opened. Please try again.',
  });
  if (!wallets.canOpen) {
    return (
      <Alert color="blue" title="Verify your identity to open more wallets">
        Wallets in other currencies open at level 2.{' '}
        <Anchor component={Link} to="/kyc">
          Verify your identity
        </Anchor>
        .
      </Alert>
    );
  }
  if (wallets.openableCurrencies.length === 0) {
    return <Text c="dimmed">You hold a wallet in every currency offered here.</Text>;
  }
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md" align="flex-start">
        <FormAlert message={formError} />
        <Group align="flex-end">
          <ChoiceSelect
            label="Currency"
            placeholder="Choose a currency"
            data={wallets.openableCurrencies.map((code) => ({ value: code, label: code }))}
            w={200}
            {...form.getInputProps('currency')}
          />
          <Button type="submit" loading={isPending}>
            Open wallet
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `/wallets`: every wallet of the customer, and opening one in another currency. */
export function WalletsPage() {
  usePageTitle('Wallets');
  const headingId = useId();
  const wallets = useQuery(walletsQueryOptions);
  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between">
        <Title order={1}>Wallets</Title>
        <Button component={Link} to="/exchange" variant="light">
          Exchange
        </Button>
      </Group>
      {wallets.isError && (
        <LoadFailed
          title="Your wallets did not load"
          error={wallets.error}
          isRetrying={wallets.isFetching}
          onRetry={() => wallets.refetch()}
        />
      )}
      {wallets.isPending && <LoadingState label="Loading your wallets" />}
      {wallets.data && (
        <>
          <Card withBorder padding="lg">
            <Stack gap="md">
              <WalletsTable wallets={wallets.data} />
              <EstimatedTotal wallets={wallets.data} />
            </Stack>
          </Card>
          <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
            <Title order={2} id={headingId} mb="md">
              Open a wallet in another currency
            </Title>
            <OpenWalletForm wallets={wallets.data} />
          </Card>
        </>
      )}
    </Stack>
  );
}
