import { closeAccountBodySchema } from '@coffer/contracts/account-closure';
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
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: closeAccountBodySchema,
    initialValues: { currentPassword: '' },
    mutation: useCloseAccount(),
    onSuccess: () => {
      showSuccessToast('Your account is closed. You are signed out everywhere.');
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
            Your{' '}
            {schedulesToCancel === 1
              ? 'scheduled payment is'
              : `${schedulesToCancel} scheduled payments are`}{' '}
            cancelled with the account and never paid after.
          </Text>
        ) : null}
        <PasswordField
          label="Your password, to confirm"
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Group>
          <BusyButton isBusy={isPending} busyLabel="Closing..." color="red.9">
            Close my account
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

export function AccountClosurePage() {
  usePageTitle('Close your account');
  const closure = useQuery(accountClosureQueryOptions);
  const headingId = 'closure-heading';

  return (
    <Stack gap="lg" maw={720}>
      <Title order={1}>Close your account</Title>
      <Text>
        Closing ends every session and sign-in, stops every email after the confirmation, and
        cancels your scheduled payments. Your transactions and the records the law requires are kept
        for the period the institution must keep them; your other personal data is removed after
        that period. Only the institution can open a closed account again.
      </Text>
      {closure.isPending && <LoadingState label="Checking your account" />}
      {closure.isError && (
        <LoadFailed
          title="We could not check your account"
          error={closure.error}
          isRetrying={closure.isFetching}
          onRetry={() => closure.refetch()}
        />
      )}
      {closure.data && (
        <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
          <Title order={2} id={headingId} mb="sm">
            {closure.data.isClosable ? 'Your account can be closed' : 'Before you can close it'}
          </Title>
          <Text mb="md">
            Balance:{' '}
            <strong>
              {formatAmountMinor(closure.data.balance.amountMinor, closure.data.balance.currency)}
            </strong>
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
                Nothing is left open on your account.
              </Alert>
              <CloseAccountForm schedulesToCancel={closure.data.scheduledPaymentsToCancel} />
            </Stack>
          ) : (
            <Stack gap="md">
              <List spacing="sm" aria-label="What keeps your account open">
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
                  <Text size="sm">Or withdraw it to a saved payee:</Text>
                  {closure.data.withdrawalPayees.map((payee) => (
                    <Anchor
                      key={payee.id}
                      component={Link}
                      to={`/transfer?tab=withdraw&payee=${encodeURIComponent(payee.id)}`}
                    >
                      Withdraw to {payee.nickname}
                    </Anchor>
                  ))}
                </Stack>
              ) : null}
              <Group>
                <Button variant="default" onClick={() => closure.refetch()}>
                  Check again
                </Button>
              </Group>
            </Stack>
          )}
        </Card>
      )}
    </Stack>
  );
}
