import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';

/**
 * PRODUCT.md "Upgrade Required": the account's level does not allow payouts; identity
 * verification on /kyc raises it.
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
    <ModalOnDemand opened={message !== null} onClose={onClose} title="Upgrade Required" centered>
      <Stack gap="sm">
        <Text>{message}</Text>
        <Text>Verify your identity to reach level 2. It is free and takes a few minutes.</Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
        <Button component={Link} to="/kyc">
          Verify your identity
        </Button>
      </Group>
    </ModalOnDemand>
  );
}
