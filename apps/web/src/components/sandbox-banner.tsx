import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import { healthQueryOptions } from '../lib/health.ts';

export const sandboxBannerHeightPx = 28;

/** Whether the server runs as a sandbox; false until the server has said so. */
export function useIsSandbox(): boolean {
  const { data } = useQuery(healthQueryOptions);
  return data?.isSandbox === true;
}

/**
 * A sandbox labels every page (ARCHITECTURE.md, Configuration), so nobody mistakes test
 * money for real money. Renders nothing on a production installation.
 */
export function SandboxBanner() {
  const isSandbox = useIsSandbox();
  const { t } = useLingui();
  if (!isSandbox) return null;
  return (
    <Box
      role="note"
      aria-label={t`Sandbox`}
      h={sandboxBannerHeightPx}
      px="md"
      bg="yellow.2"
      c="dark.9"
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 6,
        borderBottom: '1px solid var(--mantine-color-yellow-5)',
      }}
    >
      <FlaskConical size={14} aria-hidden />
      <Text size="xs" fw={600} lh={1} truncate>
        <Trans>Sandbox</Trans>
      </Text>
      <Text size="xs" lh={1} truncate>
        <Trans>— this is a test installation.</Trans>
      </Text>
    </Box>
  );
}
