import { Badge, Button, Card, Group, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { dialogOnDemand } from '../../../components/on-demand.tsx';

// The dialogs (their forms, the QR code, the recovery codes) load when one first opens: the
// profile's first screen shows only this card (docs/decisions/030).
const EnableTwoFactorDialog = dialogOnDemand(
  async () => (await import('./two-factor-dialogs.tsx')).EnableTwoFactorDialog,
);
const DisableTwoFactorDialog = dialogOnDemand(
  async () => (await import('./two-factor-dialogs.tsx')).DisableTwoFactorDialog,
);

export function TwoFactorCard({ hasTotp }: { hasTotp: boolean }) {
  const [isEnabling, enableDialog] = useDisclosure(false);
  const [isDisabling, disableDialog] = useDisclosure(false);
  const headingId = 'two-factor-heading';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb={4} gap="sm">
        <Title order={2} id={headingId}>
          Two-factor authentication
        </Title>
        {hasTotp ? (
          <Badge color="green" variant="light" leftSection={<ShieldCheck size={12} aria-hidden />}>
            On
          </Badge>
        ) : (
          <Badge color="gray" variant="light" leftSection={<ShieldOff size={12} aria-hidden />}>
            Off
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        {hasTotp
          ? 'Each login asks for a code from your authenticator app, or one of your recovery codes.'
          : 'Ask for a code from an authenticator app each time you log in, so a stolen password is not enough.'}
      </Text>
      <Group>
        {hasTotp ? (
          <Button variant="default" color="red" onClick={disableDialog.open}>
            Turn off two-factor authentication
          </Button>
        ) : (
          <Button onClick={enableDialog.open}>Set up two-factor authentication</Button>
        )}
      </Group>
      <EnableTwoFactorDialog opened={isEnabling} onClose={enableDialog.close} />
      <DisableTwoFactorDialog opened={isDisabling} onClose={disableDialog.close} />
    </Card>
  );
}
