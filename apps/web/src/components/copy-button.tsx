import { useLingui } from '@lingui/react/macro';
import { Button, CopyButton as MantineCopyButton } from '@mantine/core';
import { Check, Copy } from 'lucide-react';

/** PRODUCT.md section 5: "Copied!" shows for 2 s. */
export const copiedIndicatorMs = 2_000;

/**
 * Copies `value` and says "Copied!" for two seconds. `accessibleName` names what is copied
 * where the visible label ("Copy") alone would not.
 */
export function CopyButton({
  value,
  label,
  accessibleName,
  variant = 'light',
}: {
  value: string;
  label?: string;
  accessibleName?: string;
  variant?: 'light' | 'default';
}) {
  const { t } = useLingui();
  return (
    <MantineCopyButton value={value} timeout={copiedIndicatorMs}>
      {({ copied, copy }) => (
        <Button
          variant={variant}
          size="compact-sm"
          color={copied && variant === 'light' ? 'green' : undefined}
          leftSection={copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
          onClick={copy}
          aria-label={accessibleName && (copied ? t`Copied!` : accessibleName)}
        >
          {copied ? t`Copied!` : (label ?? t`Copy`)}
        </Button>
      )}
    </MantineCopyButton>
  );
}
