import { Button, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * PRODUCT.md "Upgrade Required": the account's level does not allow payouts. Identity
 * verification (/kyc) is not built yet, so instead of a link it names who can raise the
 * level today.
 */
export function UpgradeRequiredDialog({
  message,
  onClose,
}: {
  /** The level message; null keeps the dialog closed. */
  message: string | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="Upgrade Required" centered>
      <Stack gap="sm">
        <Text>{message}</Text>
        <Text>Ask support to verify your identity.</Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Modal>
  );
}
