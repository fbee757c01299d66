import { type Dispute, disputeReceivedMessage } from '@coffer/contracts/disputes';
import { Alert, Button, CopyButton, Group, Text } from '@mantine/core';
import { Check, Copy } from 'lucide-react';

/** PRODUCT.md section 5: "Copied!" shows for 2 s. */
const copiedIndicatorMs = 2_000;

/** What the customer sees once a dispute is filed: its reference, ready to copy. */
export function FiledDisputeCard({ dispute }: { dispute: Dispute }) {
  return (
    <Alert color="green" title="Dispute submitted" role="status">
      <Text mb="sm">{disputeReceivedMessage}</Text>
      <Group gap="sm">
        <Text ff="monospace" fw={700} fz="lg" data-testid="dispute-reference">
          {dispute.reference}
        </Text>
        <CopyButton value={dispute.reference} timeout={copiedIndicatorMs}>
          {({ copied, copy }) => (
            <Button
              variant="light"
              size="compact-sm"
              color={copied ? 'green' : undefined}
              leftSection={
                copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />
              }
              onClick={copy}
            >
              {copied ? 'Copied!' : 'Copy Reference Number'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
