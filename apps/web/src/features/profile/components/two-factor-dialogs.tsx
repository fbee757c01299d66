import { errorCodes } from '@coffer/contracts/errors';
import {
  totpDisableBodySchema,
  totpEnableBodySchema,
  totpSetupBodySchema,
} from '@coffer/contracts/profile';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  Image,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { PasswordField } from '../../../components/password-field.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { meQueryKey } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import {
  disableTotp,
  enableTotp,
  profileQueryOptions,
  refreshActivityAndSessions,
  setUpTotp,
} from '../api.ts';

/** After turning two-factor on or off: the profile, the session and the activity show it. */
function useSetHasTotp() {
  const queryClient = useQueryClient();
  return (hasTotp: boolean) => {
    queryClient.setQueryData(profileQueryOptions.queryKey, (profile) =>
      profile ? { ...profile, hasTotp } : profile,
    );
    queryClient.setQueryData(meQueryKey, (me) => (me ? { ...me, hasTotp } : me));
    void refreshActivityAndSessions(queryClient);
  };
}

function PasswordStep({
  onDone,
}: {
  onDone: (setup: { secret: string; qrCodeDataUrl: string }) => void;
}) {
  const { t } = useLingui();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { currentPassword: '' },
    validate: contractResolver(totpSetupBodySchema),
  });
  const setup = useMutation({
    mutationFn: setUpTotp,
    onSuccess: onDone,
    onError: (error) => {
      form.setFieldValue('currentPassword', '');
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: errorCodes.internal.message,
          fieldsByCode: { wrong_password: 'currentPassword' },
        }),
      );
    },
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        setup.mutate(values);
      })}
    >
      <Stack gap="md">
        <Text size="sm">
          <Trans>First, confirm it is you.</Trans>
        </Text>
        <FormAlert message={formError} />
        <PasswordField
          label={t`Current password`}
          autoComplete="current-password"
          data-autofocus
          {...form.getInputProps('currentPassword')}
        />
        <Group justify="flex-end">
          <BusyButton isBusy={setup.isPending} busyLabel={t`Checking...`}>
            <Trans>Continue</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

type TotpCodeBody = { code: string; endOtherSessions: boolean };

/**
 * A two-factor code, and whether to sign out the other sessions, checked by `schema` and
 * sent by `send`. A refused code empties the field and is told beside it; any other failure
 * above the form.
 */
function useTotpCodeForm<Answer>({
  schema,
  send,
  onSent,
}: {
  schema: typeof totpEnableBodySchema | typeof totpDisableBodySchema;
  send: (body: TotpCodeBody) => Promise<Answer>;
  onSent: (answer: Answer) => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<TotpCodeBody>({
    mode: 'controlled',
    initialValues: { code: '', endOtherSessions: false },
    validate: contractResolver(schema),
  });
  const sending = useMutation({
    mutationFn: send,
    onSuccess: onSent,
    onError: (error) => {
      form.setFieldValue('code', '');
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: errorCodes.internal.message,
          fieldsByCode: { wrong_code: 'code' },
        }),
      );
    },
  });
  const onSubmit = form.onSubmit((values) => {
    setFormError(null);
    sending.mutate(schema.parse(values));
  });
  return { form, formError, onSubmit, isSending: sending.isPending };
}

function ScanStep({
  setup,
  onEnabled,
}: {
  setup: { secret: string; qrCodeDataUrl: string };
  onEnabled: (recoveryCodes: string[]) => void;
}) {
  const { t } = useLingui();
  const setHasTotp = useSetHasTotp();
  const { form, formError, onSubmit, isSending } = useTotpCodeForm({
    schema: totpEnableBodySchema,
    send: enableTotp,
    onSent: ({ recoveryCodes }) => {
      setHasTotp(true);
      onEnabled(recoveryCodes);
    },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <List type="ordered" size="sm" spacing={4}>
          <List.Item>
            <Trans>Open your authenticator app and add an account.</Trans>
          </List.Item>
          <List.Item>
            <Trans>Scan the QR code, or type the setup key by hand.</Trans>
          </List.Item>
          <List.Item>
            <Trans>Enter the 6-digit code the app shows.</Trans>
          </List.Item>
        </List>
        <Image
          src={setup.qrCodeDataUrl}
          alt={t`QR code to scan with your authenticator app`}
          w={200}
          h={200}
          mx="auto"
          bg="white"
          p={8}
          radius="md"
        />
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label={t`Setup key`}
            value={setup.secret}
            readOnly
            dir="ltr"
            ff="monospace"
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <CopyButton variant="default" value={setup.secret} label={t`Copy`} />
        </Group>
        <FormAlert message={formError} />
        <TextInput
          label={t`6-digit code`}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          {...form.getInputProps('code')}
        />
        <Checkbox
          label={t`Sign out my other sessions`}
          {...form.getInputProps('endOtherSessions', { type: 'checkbox' })}
        />
        <Group justify="flex-end">
          <BusyButton isBusy={isSending} busyLabel={t`Checking...`}>
            <Trans>Turn on</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

function RecoveryCodesStep({
  recoveryCodes,
  onClose,
}: {
  recoveryCodes: string[];
  onClose: () => void;
}) {
  const { t } = useLingui();
  const text = `${recoveryCodes.join('\n')}\n`;
  const downloadHref = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <Stack gap="md">
      <Alert color="green" variant="light" icon={<ShieldCheck size={18} aria-hidden />}>
        <Trans>Two-factor authentication is on.</Trans>
      </Alert>
      <Text size="sm">
        <Trans>
          Save these recovery codes somewhere safe. Each one lets you log in once if you lose your
          phone. <strong>They are shown only now.</strong>
        </Trans>
      </Text>
      <SimpleGrid
        cols={2}
        spacing="xs"
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label={t`Recovery codes`}
      >
        {recoveryCodes.map((code) => (
          <Code key={code} component="li" fz="sm" ta="center" py={6}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton variant="default" value={text} label={t`Copy codes`} />
        <Button
          component="a"
          href={downloadHref}
          download="recovery-codes.txt"
          variant="default"
          size="compact-sm"
          leftSection={<Download size={14} aria-hidden />}
        >
          <Trans>Download</Trans>
        </Button>
      </Group>
      <Group justify="flex-end">
        <Button onClick={onClose}>
          <Trans>I have saved my codes</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

type SetupState =
  | { step: 'password' }
  | { step: 'scan'; setup: { secret: string; qrCodeDataUrl: string } }
  | { step: 'codes'; recoveryCodes: string[] };

function EnableDialogContent({ onClose }: { onClose: () => void }) {
  const [state, setState] = useState<SetupState>({ step: 'password' });
  if (state.step === 'password') {
    return <PasswordStep onDone={(setup) => setState({ step: 'scan', setup })} />;
  }
  if (state.step === 'scan') {
    return (
      <ScanStep
        setup={state.setup}
        onEnabled={(recoveryCodes) => setState({ step: 'codes', recoveryCodes })}
      />
    );
  }
  return <RecoveryCodesStep recoveryCodes={state.recoveryCodes} onClose={onClose} />;
}

function DisableDialogContent({ onClose }: { onClose: () => void }) {
  const { t } = useLingui();
  const setHasTotp = useSetHasTotp();
  const { form, formError, onSubmit, isSending } = useTotpCodeForm({
    schema: totpDisableBodySchema,
    send: disableTotp,
    onSent: () => {
      setHasTotp(false);
      showSuccessToast(t`Two-factor authentication is off.`);
      onClose();
    },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            Enter a code from your authenticator app, or one of your recovery codes, to turn
            two-factor authentication off.
          </Trans>
        </Text>
        <FormAlert message={formError} />
        <TextInput
          label={t`Verification code`}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          {...form.getInputProps('code')}
        />
        <Checkbox
          label={t`Sign out my other sessions`}
          {...form.getInputProps('endOtherSessions', { type: 'checkbox' })}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <BusyButton isBusy={isSending} busyLabel={t`Turning off...`} color="red">
            <Trans>Turn off</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The set-up dialog, its code loaded when it first opens (two-factor-card.tsx). */
export function EnableTwoFactorDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <ModalOnDemand
      opened={opened}
      onClose={onClose}
      title={t`Set up two-factor authentication`}
      centered
    >
      <EnableDialogContent onClose={onClose} />
    </ModalOnDemand>
  );
}

/** The turn-off dialog, its code loaded when it first opens (two-factor-card.tsx). */
export function DisableTwoFactorDialog({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <ModalOnDemand
      opened={opened}
      onClose={onClose}
      title={t`Turn off two-factor authentication`}
      centered
    >
      <DisableDialogContent onClose={onClose} />
    </ModalOnDemand>
  );
}
