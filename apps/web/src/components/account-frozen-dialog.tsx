import { Button, Group, Modal, Text } from '@mantine/core';

/**
 * PRODUCT.md "Account frozen" dialog: shown instead of sending, withdrawing or paying
 * when staff froze the account, with the server's message (it carries their reason).
 */
export function AccountFrozenDialog({
  message,
  onClose,
}: {
  /** The server's `account_frozen` message; null keeps the dialog closed. */
  message: string | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="Account frozen" centered>
      <Text>{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>OK</Button>
      </Group>
    </Modal>
  );
}
