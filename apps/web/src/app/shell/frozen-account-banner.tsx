import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { Ban } from 'lucide-react';
import { useMe } from '../../lib/session.ts';

/**
 * Tells a person whose transactions staff disabled why, every time they look (PRODUCT.md
 * section 0: never blocked without being told why; the wording is section 4's).
 */
export function FrozenAccountBanner() {
  const me = useMe();
  const { t } = useLingui();
  if (!me || me.frozenReason === null) return null;
  const { frozenReason } = me;
  return (
    <Alert
      color="red"
      variant="light"
      mb="lg"
      icon={<Ban size={18} aria-hidden />}
      aria-label={t`Transactions disabled`}
    >
      <Text size="sm">
        <Trans>
          Transactions are disabled on your account: {frozenReason}. Contact support to have them
          re-enabled.
        </Trans>
      </Text>
    </Alert>
  );
}
