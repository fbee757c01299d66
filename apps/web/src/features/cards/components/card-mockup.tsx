import type { Card } from '@coffer/contracts/cards';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Group, Stack, Text } from '@mantine/core';
import { Nfc } from 'lucide-react';

/**
 * The card as a picture: the masked number (last four only; Coffer never has the rest),
 * expiry and holder once issued, placeholders before. A frozen card is shown greyed.
 */
export function CardMockup({ card }: { card: Card | null }) {
  const { t } = useLingui();
  const isFrozen = card?.status === 'frozen';
  const lastFour = card?.lastFour ?? '••••';
  const expiry = card?.expiry;
  const holderName = card?.holderName;
  const description = !card?.lastFour
    ? t`Virtual card picture`
    : isFrozen
      ? t`Virtual card ending ${lastFour}, expires ${expiry}, ${holderName}, frozen`
      : t`Virtual card ending ${lastFour}, expires ${expiry}, ${holderName}`;
  return (
    <Box
      role="img"
      aria-label={description}
      // A card reads left to right in every language: its number, holder and expiry.
      dir="ltr"
      p="lg"
      w="100%"
      maw={380}
      style={{
        aspectRatio: '1.586',
        borderRadius: 16,
        color: 'white',
        background: isFrozen
          ? 'linear-gradient(135deg, #5c6670, #8a949e)'
          : 'linear-gradient(135deg, #1c3f8c, #3b6fd6 60%, #5a8cf0)',
        boxShadow: '0 8px 24px rgba(0, 0, 0, 0.18)',
      }}
    >
      <Stack justify="space-between" h="100%" gap={0}>
        <Group justify="space-between">
          <Text fw={700} size="lg">
            Coffer
          </Text>
          <Group gap={6}>
            {isFrozen && (
              <Text size="xs" fw={700} tt="uppercase">
                <Trans>Frozen</Trans>
              </Text>
            )}
            <Nfc size={22} aria-hidden />
          </Group>
        </Group>
        <Text ff="monospace" fz={{ base: 'md', xs: 'lg' }} style={{ letterSpacing: 2 }}>
          •••• •••• •••• {lastFour}
        </Text>
        <Group justify="space-between" align="flex-end" wrap="nowrap">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="xs" opacity={0.8}>
              <Trans>Card holder</Trans>
            </Text>
            <Text fw={600} truncate>
              {holderName ?? t`YOUR NAME`}
            </Text>
          </Stack>
          <Stack gap={0} align="flex-end">
            <Text size="xs" opacity={0.8}>
              <Trans>Expires</Trans>
            </Text>
            <Text fw={600}>{expiry ?? t`MM/YY`}</Text>
          </Stack>
        </Group>
      </Stack>
    </Box>
  );
}
