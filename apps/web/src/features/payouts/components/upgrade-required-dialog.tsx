import { Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';

/** PRODUCT.md "Upgrade Required": the account's level does not allow payouts; /kyc raises it. */
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
        <Text>
          <Anchor component={Link} to="/kyc" fw={600}>
            Verify your identity
          </Anchor>{' '}
          to reach level 2.
        </Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Modal>
  );
}
