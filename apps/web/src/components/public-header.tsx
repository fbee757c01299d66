import { isStaffRole } from '@coffer/contracts/auth';
import { useLingui } from '@lingui/react/macro';
import { Anchor, Button, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { homePathFor } from '../lib/return-to.ts';
import { useMe } from '../lib/session.ts';
import { Brand } from './brand.tsx';
import { LanguageSwitcher } from './language-switcher.tsx';
import { siteLinks } from './site-links.tsx';

/**
 * The top of every public page: logo, About us, Banking Products, Get Started. The frame
 * puts it in the page's <header> together with the sandbox label. `siteMenu` is the phone's
 * menu button: loaded on demand in the app, kept in the page on the server-rendered one.
 */
export function PublicHeader({ siteMenu }: { siteMenu: ReactNode }) {
  const me = useMe();
  const { t, i18n } = useLingui();
  // Someone signed in goes back in: a customer to the dashboard, staff to the back office.
  const action = me
    ? { label: isStaffRole(me.role) ? t`Back office` : t`Dashboard`, to: homePathFor(me.role) }
    : { label: t`Get Started`, to: '/signup' };
  return (
    <Container size="lg" py="md" w="100%">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Brand />
        <Group gap="lg" wrap="nowrap" component="nav" aria-label={t`Site`} visibleFrom="sm">
          {siteLinks.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} c="inherit" fw={500}>
              {i18n._(link.label)}
            </Anchor>
          ))}
          <LanguageSwitcher />
          <Button component={Link} to={action.to}>
            {action.label}
          </Button>
        </Group>
        <Group gap="xs" wrap="nowrap" hiddenFrom="sm">
          <LanguageSwitcher />
          <Button component={Link} to={action.to} size="xs">
            {action.label}
          </Button>
          {siteMenu}
        </Group>
      </Group>
    </Container>
  );
}
