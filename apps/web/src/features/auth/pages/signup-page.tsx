import { defaultCountryCode } from '@coffer/contracts/countries';
import { signupBodySchema } from '@coffer/contracts/signup';
import { acceptTermsMessage, type Terms } from '@coffer/contracts/terms';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Stack, Text, TextInput } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { useInputBeforeStart } from '../../../lib/input-before-start.ts';
import { setSignedInUser } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { TermsDocument, termsQueryOptions } from '../../terms/index.ts';
import { signUp } from '../api.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CountrySelect } from '../components/country-select.tsx';
import classes from './signup-page.module.css';

const initialValues = {
  username: '',
  email: '',
  phone: '',
  password: '',
  country: defaultCountryCode,
  /** The version of the terms shown, once its checkbox is ticked; empty until then. */
  acceptedTermsVersion: '',
};
type SignupValues = typeof initialValues;

/**
 * The operator's terms and privacy notice, to read and accept: ticking the box accepts the
 * version shown, which the server records (or refuses, if it has changed meanwhile).
 */
function TermsAcceptance({ terms, form }: { terms: Terms; form: UseFormReturnType<SignupValues> }) {
  const error = form.errors.acceptedTermsVersion;
  const errorId = 'accepted-terms-error';
  return (
    <Stack gap="xs">
      <TermsDocument terms={terms} />
      {/* The browser's own checkbox: Mantine's would add 3 KB to the page's budget. */}
      <label className={classes.acceptance}>
        <input
          type="checkbox"
          className={classes.checkbox}
          // Named and valued so a tick given before the app started is kept (lib/input-before-start.ts).
          data-path="acceptedTermsVersion"
          value={terms.version}
          checked={form.values.acceptedTermsVersion === terms.version}
          onChange={(event) =>
            form.setFieldValue(
              'acceptedTermsVersion',
              event.currentTarget.checked ? terms.version : '',
            )
          }
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <Text size="sm" span>
          <Trans>I have read and accept the terms of service and the privacy notice</Trans>
        </Text>
      </label>
      {error && (
        <Text size="xs" c="red" id={errorId}>
          {error}
        </Text>
      )}
    </Stack>
  );
}

export function SignupPage() {
  const { t } = useLingui();
  usePageTitle(t`Create account`);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [formError, setFormError] = useState<string | null>(null);
  const terms = useQuery(termsQueryOptions).data?.terms ?? null;
  const checkFields = contractResolver(signupBodySchema);
  const form = useForm({
    mode: 'controlled',
    initialValues,
    // The contract cannot know which terms are published: the box must accept the ones shown.
    validate: (values) => ({
      ...checkFields(values),
      ...(terms && values.acceptedTermsVersion !== terms.version
        ? { acceptedTermsVersion: acceptTermsMessage }
        : {}),
    }),
  });
  const keepInputBeforeStart = useInputBeforeStart(form);
  const signup = useMutation({
    mutationFn: signUp,
    onSuccess: async ({ user }) => {
      const username = user.username;
      showSuccessToast(t`Welcome, ${username}`);
      showSuccessToast(t`Thank you for registering`);
      setSignedInUser(queryClient, user);
      await navigate('/dashboard', { replace: true });
    },
    onError: (error) => {
      // Refused because the terms changed while the page was open: show the new ones.
      if (error instanceof ApiError && error.fields.acceptedTermsVersion) {
        void queryClient.invalidateQueries({ queryKey: termsQueryOptions.queryKey });
      }
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: t`Account creation failed`,
          fieldsByCode: { email_in_use: 'email', password_too_weak: 'password' },
        }),
      );
    },
  });

  return (
    <AuthCard
      title={t`Create account`}
      description={t`Open a wallet in your country's currency. It takes a minute.`}
    >
      <form
        noValidate
        ref={keepInputBeforeStart}
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          const { acceptedTermsVersion, ...fields } = values;
          signup.mutate(signupBodySchema.parse(acceptedTermsVersion ? values : fields));
        })}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          <TextInput
            label={t`Username`}
            autoComplete="username"
            {...form.getInputProps('username')}
          />
          <TextInput
            label={t`Email`}
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
          />
          <TextInput
            label={t`Phone number`}
            type="tel"
            autoComplete="tel"
            dir="ltr"
            placeholder="+1 415 555 2671"
            description={t`International format: + and your country code first.`}
            {...form.getInputProps('phone')}
          />
          <Stack gap="xs">
            <PasswordField
              label={t`Password`}
              autoComplete="new-password"
              description={t`At least 8 characters and hard to guess.`}
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter
              password={form.values.password}
              personalWords={[form.values.username, form.values.email]}
            />
          </Stack>
          <CountrySelect {...form.getInputProps('country')} value={form.values.country} />
          {terms && <TermsAcceptance terms={terms} form={form} />}
          <BusyButton isBusy={signup.isPending} busyLabel={t`Registering...`} fullWidth mt="xs">
            <Trans>Register</Trans>
          </BusyButton>
          <Text size="sm" ta="center">
            <Trans>
              Already have an account?{' '}
              <Anchor component={Link} to={`/signin${location.search}`} state={location.state}>
                Login
              </Anchor>
            </Trans>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
