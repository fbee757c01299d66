import { loginBodySchema, type Me, secondFactorCodeSchema } from '@coffer/contracts/auth';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod/mini';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { useInputBeforeStart } from '../../../lib/input-before-start.ts';
import { useCanUsePasskeys } from '../../../lib/passkeys.ts';
import { pathAfterSignIn } from '../../../lib/return-to.ts';
import { setSignedInUser } from '../../../lib/session.ts';
import { showSuccessToast, toastDurationsMs } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { logIn, submitSecondFactor } from '../api.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { signInWithPasskey, submitSecondFactorWithPasskey } from '../passkey-api.ts';

const loginFailedMessage = msg`Login failed. Please try again.`;
const challengeExpiredMessage = msg`Your sign-in took too long to finish. Please enter your email and password again.`;
const secondFactorFormSchema = z.object({ code: secondFactorCodeSchema });

/** After the right password (and code, if asked): the toast, then back where they came from. */
function useFinishSignIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const { t } = useLingui();
  return async (user: Me) => {
    showSuccessToast(t`Login Successful!`, toastDurationsMs.login);
    const target = pathAfterSignIn(location, user.role);
    setSignedInUser(queryClient, user);
    await navigate(target, { replace: true });
  };
}

function PasswordStep({
  initialError,
  onSecondFactorRequired,
}: {
  initialError: string | null;
  onSecondFactorRequired: (challengeToken: string) => void;
}) {
  const { t, i18n } = useLingui();
  const finishSignIn = useFinishSignIn();
  const canUsePasskeys = useCanUsePasskeys();
  const [formError, setFormError] = useState<string | null>(initialError);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    validate: contractResolver(loginBodySchema),
  });
  const keepInputBeforeStart = useInputBeforeStart(form);
  const passkeySignIn = useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: (result) => finishSignIn(result.user),
    onError: (error) => setFormError(errorMessage(error)),
  });
  const login = useMutation({
    mutationFn: logIn,
    onSuccess: async (result) => {
      if (result.status === 'second_factor_required') {
        onSecondFactorRequired(result.challengeToken);
        return;
      }
      await finishSignIn(result.user);
    },
    onError: (error) => {
      form.setFieldValue('password', '');
      setFormError(
        showApiErrorOnForm(form, error, { otherFailureMessage: i18n._(loginFailedMessage) }),
      );
    },
  });

  return (
    <AuthCard title={t`Login`} description={t`Welcome back. Sign in to your account.`}>
      <form
        noValidate
        ref={keepInputBeforeStart}
        onSubmit={form.onSubmit(
          (values) => {
            setFormError(null);
            login.mutate(loginBodySchema.parse(values));
          },
          // Both fields share one message, so it is said once, above the form.
          (errors) => {
            const [message] = Object.values(errors);
            if (typeof message === 'string') {
              form.clearErrors();
              setFormError(message);
            }
          },
        )}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          <TextInput
            label={t`Email`}
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
          />
          <Stack gap={6}>
            <PasswordField
              label={t`Password`}
              autoComplete="current-password"
              {...form.getInputProps('password')}
            />
            <Anchor component={Link} to="/forgot-password" size="sm" ta="end">
              <Trans>Forgot Password?</Trans>
            </Anchor>
          </Stack>
          <BusyButton isBusy={login.isPending} busyLabel={t`Logging in...`} fullWidth>
            <Trans>Login</Trans>
          </BusyButton>
          {canUsePasskeys && (
            <Button
              variant="default"
              fullWidth
              loading={passkeySignIn.isPending}
              onClick={() => {
                setFormError(null);
                passkeySignIn.mutate();
              }}
            >
              <Trans>Sign in with a passkey</Trans>
            </Button>
          )}
          <Text size="sm" ta="center">
            {/* A new customer starts on the dashboard, so the way back is not passed on. */}
            <Trans>
              New here?{' '}
              <Anchor component={Link} to="/signup">
                Sign Up
              </Anchor>
            </Trans>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}

function SecondFactorStep({
  challengeToken,
  onRestart,
}: {
  challengeToken: string;
  onRestart: (message: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const finishSignIn = useFinishSignIn();
  const canUsePasskeys = useCanUsePasskeys();
  const [formError, setFormError] = useState<string | null>(null);
  const codeInputRef = useRef<HTMLInputElement>(null);
  // The step replaces the password form, so the focus moves to where the code goes.
  useEffect(() => codeInputRef.current?.focus(), []);
  const form = useForm({
    mode: 'controlled',
    initialValues: { code: '' },
    validate: contractResolver(secondFactorFormSchema),
  });
  const passkeyVerify = useMutation({
    mutationFn: () => submitSecondFactorWithPasskey(challengeToken),
    onSuccess: (result) => finishSignIn(result.user),
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'link_expired') {
        onRestart(i18n._(challengeExpiredMessage));
        return;
      }
      setFormError(
        error instanceof ApiError && error.code === 'not_found'
          ? t`This account has no passkey yet. Enter a code instead.`
          : errorMessage(error),
      );
    },
  });
  const verify = useMutation({
    mutationFn: submitSecondFactor,
    onSuccess: (result) => finishSignIn(result.user),
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'link_expired') {
        onRestart(i18n._(challengeExpiredMessage));
        return;
      }
      form.setFieldValue('code', '');
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: i18n._(loginFailedMessage),
          fieldsByCode: { wrong_code: 'code' },
        }),
      );
    },
  });

  return (
    <AuthCard
      title={t`Two-step verification`}
      description={t`Enter the 6-digit code from your authenticator app, or one of your recovery codes.`}
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          verify.mutate({ challengeToken, code: values.code.trim() });
        })}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          <TextInput
            label={t`Verification code`}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            ref={codeInputRef}
            {...form.getInputProps('code')}
          />
          <Group justify="space-between" wrap="nowrap">
            <Button variant="subtle" onClick={() => onRestart(null)} px="xs">
              <Trans>Back</Trans>
            </Button>
            <BusyButton isBusy={verify.isPending} busyLabel={t`Verifying...`}>
              <Trans>Verify</Trans>
            </BusyButton>
          </Group>
          {canUsePasskeys && (
            <Button
              variant="default"
              loading={passkeyVerify.isPending}
              onClick={() => {
                setFormError(null);
                passkeyVerify.mutate();
              }}
            >
              <Trans>Use a passkey instead</Trans>
            </Button>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}

/** Login: email and password, then the authenticator code when two-factor is on. */
export function SigninPage() {
  const { t } = useLingui();
  usePageTitle(t`Login`);
  const [challengeToken, setChallengeToken] = useState<string | null>(null);
  const [restartMessage, setRestartMessage] = useState<string | null>(null);
  if (challengeToken) {
    return (
      <SecondFactorStep
        challengeToken={challengeToken}
        onRestart={(message) => {
          setRestartMessage(message);
          setChallengeToken(null);
        }}
      />
    );
  }
  return (
    <PasswordStep
      key={restartMessage ?? 'start'}
      initialError={restartMessage}
      onSecondFactorRequired={(token) => {
        setRestartMessage(null);
        setChallengeToken(token);
      }}
    />
  );
}
