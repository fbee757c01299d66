import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { dialogOnDemand } from '../../../components/on-demand.tsx';
import { useMe } from '../../../lib/session.ts';

// The dialogs (their forms, the QR code, the recovery codes) load when one first opens: the
// profile's first screen shows only this card (docs/decisions/030).
const EnableTwoFactorDialog = dialogOnDemand(
  async () => (await import('./two-factor-dialogs.tsx')).EnableTwoFactorDialog,
);
const DisableTwoFactorDialog = dialogOnDemand(
  async () => (await import('./two-factor-dialogs.tsx')).DisableTwoFactorDialog,
);

export function TwoFactorCard({ hasTotp }: { hasTotp: boolean }) {
  const { t } = useLingui();
  const [isEnabling, enableDialog] = useDisclosure(false);
  const [isDisabling, disableDialog] = useDisclosure(false);
  // Staff where COFFER_STAFF_TWO_FACTOR requires it: the server refuses to turn it off
  // (the back office would close to them), so the card says why instead of offering it.
  const isRequired = useMe()?.isTwoFactorRequired ?? false;
  const isKeptOn = hasTotp && isRequired;
  const headingId = 'two-factor-heading';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb={4} gap="sm">
        <Title order={2} id={headingId}>
          <Trans>Two-factor authentication</Trans>
        </Title>
        {hasTotp ? (
          <Badge color="green" variant="light" leftSection={<ShieldCheck size={12} aria-hidden />}>
            <Trans>On</Trans>
          </Badge>
        ) : (
          <Badge color="gray" variant="light" leftSection={<ShieldOff size={12} aria-hidden />}>
            <Trans>Off</Trans>
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {hasTotp
          ? t`Each login asks for a code from your authenticator app, or one of your recovery codes.`
          : t`Ask for a code from an authenticator app each time you log in, so a stolen password is not enough.`}
      </Text>
      {isKeptOn ? (
        <Text size="sm">
          {errorCodes.staff_two_factor_stays_on.message}{' '}
          <Trans>
            It keeps the back office open to you: without it, every back-office page would be
            closed.
          </Trans>
        </Text>
      ) : (
        <Group>
          {hasTotp ? (
            <Button variant="default" color="red" onClick={disableDialog.open}>
              <Trans>Turn off two-factor authentication</Trans>
            </Button>
          ) : (
            <Button onClick={enableDialog.open}>
              <Trans>Set up two-factor authentication</Trans>
            </Button>
          )}
        </Group>
      )}
      <EnableTwoFactorDialog opened={isEnabling} onClose={enableDialog.close} />
      <DisableTwoFactorDialog opened={isDisabling} onClose={disableDialog.close} />
    </Card>
  );
}
