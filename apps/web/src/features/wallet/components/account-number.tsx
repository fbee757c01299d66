import { Button, CopyButton, Group, Text } from '@mantine/core';
import { Check, Copy } from 'lucide-react';

/** PRODUCT.md section 5: "Copied!" shows for 2 s. */
const copiedIndicatorMs = 2_000;

/** The customer's own account number, to give to whoever pays them, with a copy button. */
export function AccountNumber({ accountNumber }: { accountNumber: string }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text ff="monospace" fw={600} fz="lg">
        {accountNumber}
      </Text>
      <CopyButton value={accountNumber} timeout={copiedIndicatorMs}>
        {({ copied, copy }) => (
          <Button
            variant="light"
            size="compact-sm"
            color={copied ? 'green' : undefined}
            leftSection={copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
            onClick={copy}
            aria-label={copied ? 'Copied!' : 'Copy account number'}
          >
            {copied ? 'Copied!' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
