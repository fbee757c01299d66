import { defaultCountryCode } from '@coffer/contracts/countries';
import { signupBodySchema } from '@coffer/contracts/signup';
import { Anchor, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { PasswordStrengthMeter } from '../../../components/password-strength-meter.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { setSignedInUser } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { signUp } from '../api.ts';
import { AuthCard } from '../components/auth-card.tsx';
import { CountrySelect } from '../components/country-select.tsx';

export function SignupPage() {
  usePageTitle('Create account');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      username: '',
      email: '',
      phone: '',
      password: '',
      country: defaultCountryCode,
    },
    validate: contractResolver(signupBodySchema),
  });
  const signup = useMutation({
    mutationFn: signUp,
    onSuccess: async ({ user }) => {
      showSuccessToast(`Welcome, ${user.username}`);
      showSuccessToast('Thank you for registering');
      setSignedInUser(queryClient, user);
      await navigate('/dashboard', { replace: true });
    },
    onError: (error) => {
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: 'Account creation failed',
          fieldsByCode: { email_in_use: 'email', password_too_weak: 'password' },
        }),
      );
    },
  });

  return (
    <AuthCard
      title="Create account"
      description="Open a wallet in your country's currency. It takes a minute."
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          setFormError(null);
          signup.mutate(signupBodySchema.parse(values));
        })}
      >
        <Stack gap="md">
          <FormAlert message={formError} />
          <TextInput label="Username" autoComplete="username" {...form.getInputProps('username')} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            {...form.getInputProps('email')}
          />
          <TextInput
            label="Phone number"
            type="tel"
            autoComplete="tel"
            placeholder="+1 415 555 2671"
            description="International format: + and your country code first."
            {...form.getInputProps('phone')}
          />
          <Stack gap="xs">
            <PasswordField
              label="Password"
              autoComplete="new-password"
              description="At least 8 characters and hard to guess."
              {...form.getInputProps('password')}
            />
            <PasswordStrengthMeter
              password={form.values.password}
              personalWords={[form.values.username, form.values.email]}
            />
          </Stack>
          <CountrySelect {...form.getInputProps('country')} value={form.values.country} />
          <BusyButton isBusy={signup.isPending} busyLabel="Registering..." fullWidth mt="xs">
            Register
          </BusyButton>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={`/signin${location.search}`} state={location.state}>
              Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
