import { Paper, SimpleGrid, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { ArrowLeftRight, type LucideIcon, ReceiptText } from 'lucide-react';
import { Link } from 'react-router';

type Shortcut = { label: string; to: string; icon: LucideIcon };

/**
 * PRODUCT.md lists Transfer, Pay Bills, Loan and Cards. Only screens that exist are
 * offered: Loan and Cards join this list in the change that builds them.
 */
const shortcuts: readonly Shortcut[] = [
  { label: 'Transfer', to: '/transfer', icon: ArrowLeftRight },
  { label: 'Pay Bills', to: '/pay-bills', icon: ReceiptText },
];

export function ShortcutTiles() {
  return (
    <SimpleGrid cols={2} spacing="sm" component="nav" aria-label="Shortcuts">
      {shortcuts.map((shortcut) => (
        <UnstyledButton component={Link} to={shortcut.to} key={shortcut.to}>
          <Paper withBorder p="md" h="100%">
            <Stack gap={8} align="center">
              <ThemeIcon variant="light" size={44} radius="xl">
                <shortcut.icon size={22} aria-hidden />
              </ThemeIcon>
              <Text size="sm" fw={600}>
                {shortcut.label}
              </Text>
            </Stack>
          </Paper>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}
