import { closeAccountBodySchema } from '@coffer/contracts/account-closure';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { logoutState } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { accountClosureQueryOptions, useCloseAccount } from '../api.ts';

function CloseAccountForm({ schedulesToCancel }: { schedulesToCancel: number }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: closeAccountBodySchema,
    initialValues: { currentPassword: '' },
    mutation: useCloseAccount(),
    onSuccess: () => {
      showSuccessToast(t`Your account is closed. You are signed out everywhere.`);
      // The sign-in page forgets the user, as after Logout: the session is gone already.
      navigate('/signin', { replace: true, state: logoutState });
    },
    onError: (failed) => {
      failed.setFieldValue('currentPassword', '');
      // Something opened meanwhile (a payment arrived): show why, as the server found it.
      void queryClient.invalidateQueries({ queryKey: accountClosureQueryOptions.queryKey });
    },
    fieldsByCode: { wrong_password: 'currentPassword' },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md" maw={420}>
        <FormAlert message={formError} />
        {schedulesToCancel > 0 ? (
          <Text size="sm">
            <Plural
              value={schedulesToCancel}
              one="Your scheduled payment is cancelled with the account and never paid after."
              other="Your # scheduled payments are cancelled with the account and never paid after."
            />
          </Text>
        ) : null}
        <PasswordField
          label={t`Your password, to confirm`}
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Group>
          <BusyButton isBusy={isPending} busyLabel={t`Closing...`} color="red.9">
            <Trans>Close my account</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

function Balance({ balance }: { balance: { amountMinor: bigint; currency: string } }) {
  const amount = formatAmountMinor(balance.amountMinor, balance.currency);
  return (
    <Trans>
      Balance: <strong>{amount}</strong>
    </Trans>
  );
}

function WithdrawTo({ nickname }: { nickname: string }) {
  return <Trans>Withdraw to {nickname}</Trans>;
}

export function AccountClosurePage() {
  const { t } = useLingui();
  usePageTitle(t`Close your account`);
  const closure = useQuery(accountClosureQueryOptions);
  const headingId = 'closure-heading';

  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>
        <Trans>Close your account</Trans>
      </Title>
      <Text>
        <Trans>
          Closing ends every session and sign-in, stops every email after the confirmation, and
          cancels your scheduled payments. Your transactions and the records the law requires are
          kept for the period the institution must keep them; your other personal data is removed
          after that period. Only the institution can open a closed account again.
        </Trans>
      </Text>
      {closure.isPending && <LoadingState label={t`Checking your account`} />}
      {closure.isError && (
        <LoadFailed
          title={t`We could not check your account`}
          error={closure.error}
          isRetrying={closure.isFetching}
          onRetry={() => closure.refetch()}
        />
      )}
      {closure.data && (
        <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
          <Title order={2} id={headingId} mb="sm">
            {closure.data.isClosable ? t`Your account can be closed` : t`Before you can close it`}
          </Title>
          <Text mb="md">
            <Balance balance={closure.data.balance} />
            {closure.data.otherBalances.map((other) => (
              <span key={other.currency}>
                {' · '}
                {formatAmountMinor(other.amountMinor, other.currency)}
              </span>
            ))}
          </Text>
          {closure.data.isClosable ? (
            <Stack gap="md">
              <Alert color="green" variant="light" icon={<CircleCheck size={18} aria-hidden />}>
                <Trans>Nothing is left open on your account.</Trans>
              </Alert>
              <CloseAccountForm schedulesToCancel={closure.data.scheduledPaymentsToCancel} />
            </Stack>
          ) : (
            <Stack gap="md">
              <List spacing="sm" aria-label={t`What keeps your account open`}>
                {closure.data.blockers.map((blocker) => (
                  <List.Item
                    key={`${blocker.kind}-${blocker.message}`}
                    icon={<CircleAlert size={18} aria-hidden color="var(--mantine-color-red-7)" />}
                  >
                    <Text>{blocker.message}</Text>
                    {blocker.link && blocker.linkLabel ? (
                      <Anchor component={Link} to={blocker.link}>
                        {blocker.linkLabel}
                      </Anchor>
                    ) : null}
                  </List.Item>
                ))}
              </List>
              {closure.data.blockers.some((blocker) => blocker.kind === 'balance_positive') &&
              closure.data.withdrawalPayees.length > 0 ? (
                <Stack gap={4}>
                  <Text size="sm">
                    <Trans>Or withdraw it to a saved payee:</Trans>
                  </Text>
                  {closure.data.withdrawalPayees.map((payee) => (
                    <Anchor
                      key={payee.id}
                      component={Link}
                      to={`/transfer?tab=withdraw&payee=${encodeURIComponent(payee.id)}`}
                    >
                      <WithdrawTo nickname={payee.nickname} />
                    </Anchor>
                  ))}
                </Stack>
              ) : null}
              <Group>
                <Button variant="default" onClick={() => closure.refetch()}>
                  <Trans>Check again</Trans>
                </Button>
              </Group>
            </Stack>
          )}
        </Card>
      )}
    </Stack>
  );
}
