import type { Dispute } from '@coffer/contracts/disputes';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, CopyButton, Group, Text } from '@mantine/core';
import { Check, Copy } from 'lucide-react';

/** PRODUCT.md section 5: "Copied!" shows for 2 s. */
const copiedIndicatorMs = 2_000;

/** What the customer sees once a dispute is filed: its reference, ready to copy. */
export function FiledDisputeCard({ dispute }: { dispute: Dispute }) {
  const { t } = useLingui();
  return (
    <Alert color="green" title={t`Dispute submitted`} role="status">
      {/* The contract's disputeReceivedMessage, in the page's language. */}
      <Text mb="sm">
        <Trans>
          We have received your dispute. Quote this reference in any message to support.
        </Trans>
      </Text>
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
              {copied ? t`Copied!` : t`Copy Reference Number`}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Alert>
  );
}
