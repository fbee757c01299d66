import type { WalletList } from '@coffer/contracts/wallets';
import { openWalletBodySchema } from '@coffer/contracts/wallets';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const mutation = useMutation({ mutationFn: openWallet });
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: openWalletBodySchema,
    initialValues: { currency: wallets.openableCurrencies[0] ?? '' },
    mutation,
    onSuccess: async (opened) => {
      const { currency, accountNumber } = opened;
      showSuccessToast(t`Your ${currency} wallet is open: account ${accountNumber}.`);
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
    otherFailureMessage: t`The wallet could not be opened. Please try again.`,
  });
  if (!wallets.canOpen) {
    return (
      <Alert color="blue" title={t`Verify your identity to open more wallets`}>
        <Trans>
          Wallets in other currencies open at level 2.{' '}
          <Anchor component={Link} to="/kyc">
            Verify your identity
          </Anchor>
          .
        </Trans>
      </Alert>
    );
  }
  if (wallets.openableCurrencies.length === 0) {
    return (
      <Text c="dimmed">
        <Trans>You hold a wallet in every currency offered here.</Trans>
      </Text>
    );
  }
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md" align="flex-start">
        <FormAlert message={formError} />
        <Group align="flex-end">
          <ChoiceSelect
            label={t`Currency`}
            placeholder={t`Choose a currency`}
            data={wallets.openableCurrencies.map((code) => ({ value: code, label: code }))}
            w={200}
            {...form.getInputProps('currency')}
          />
          <Button type="submit" loading={isPending}>
            <Trans>Open wallet</Trans>
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** `/wallets`: every wallet of the customer, and opening one in another currency. */
export function WalletsPage() {
  const { t } = useLingui();
  usePageTitle(t`Wallets`);
  const headingId = useId();
  const wallets = useQuery(walletsQueryOptions);
  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between">
        <Title order={1}>
          <Trans>Wallets</Trans>
        </Title>
        <Button component={Link} to="/exchange" variant="light">
          <Trans>Exchange</Trans>
        </Button>
      </Group>
      {wallets.isError && (
        <LoadFailed
          title={t`Your wallets did not load`}
          error={wallets.error}
          isRetrying={wallets.isFetching}
          onRetry={() => wallets.refetch()}
        />
      )}
      {wallets.isPending && <LoadingState label={t`Loading your wallets`} />}
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
              <Trans>Open a wallet in another currency</Trans>
            </Title>
            <OpenWalletForm wallets={wallets.data} />
          </Card>
        </>
      )}
    </Stack>
  );
}
