import { Group, Text } from '@mantine/core';
import { CopyButton } from '../../../components/copy-button.tsx';

/** The customer's own account number, to give to whoever pays them, with a copy button. */
export function AccountNumber({ accountNumber }: { accountNumber: string }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text ff="monospace" fw={600} fz="lg">
        {accountNumber}
      </Text>
      <CopyButton value={accountNumber} accessibleName="Copy account number" />
    </Group>
  );
}
