import { useLingui } from '@lingui/react/macro';
import { Group, Stack, Text } from '@mantine/core';
import { CopyButton } from '../../../components/copy-button.tsx';

/** An IBAN as people read it: in groups of four ("DE89 3704 0044 …"). */
function printedIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}

/**
 * The customer's own account number, to give to whoever pays them, with a copy button;
 * and its IBAN below it where the operator gives accounts IBANs (`COFFER_IBAN`).
 */
export function AccountNumber({
  accountNumber,
  iban,
}: {
  accountNumber: string;
  iban: string | null;
}) {
  const { t } = useLingui();
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <Text ff="monospace" fw={600} fz="lg">
          {accountNumber}
        </Text>
        <CopyButton value={accountNumber} accessibleName={t`Copy account number`} />
      </Group>
      {iban && (
        <Group gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">
            IBAN
          </Text>
          <Text ff="monospace" fw={600} data-testid="account-iban" dir="ltr">
            {printedIban(iban)}
          </Text>
          <CopyButton value={iban} accessibleName={t`Copy IBAN`} />
        </Group>
      )}
    </Stack>
  );
}
