import { useLingui } from '@lingui/react/macro';
import { Paper, SimpleGrid, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { customerPages } from '../../../lib/navigation.ts';

/**
 * Every other customer page that exists, in the menu's order: PRODUCT.md lists Transfer,
 * Pay Bills, Loan and Cards, and a page joins here when its feature adds it to the menu.
 */
const shortcuts = customerPages.filter((page) => page.to !== '/dashboard');

export function ShortcutTiles() {
  const { t, i18n } = useLingui();
  return (
    <SimpleGrid cols={2} spacing="sm" component="nav" aria-label={t`Shortcuts`}>
      {shortcuts.map((shortcut) => (
        <UnstyledButton component={Link} to={shortcut.to} key={shortcut.to}>
          <Paper withBorder p="md" h="100%">
            <Stack gap={8} align="center">
              <ThemeIcon variant="light" size={44} radius="xl">
                <shortcut.icon size={22} aria-hidden />
              </ThemeIcon>
              <Text size="sm" fw={600}>
                {i18n._(shortcut.label)}
              </Text>
            </Stack>
          </Paper>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}
