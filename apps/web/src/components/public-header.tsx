import { isStaffRole } from '@coffer/contracts/auth';
import { ActionIcon, Anchor, Button, Container, Group, Menu } from '@mantine/core';
import { Menu as MenuIcon } from 'lucide-react';
import { Link } from 'react-router';
import { homePathFor } from '../lib/return-to.ts';
import { useMe } from '../lib/session.ts';
import { Brand } from './brand.tsx';

const links = [
  { label: 'About us', to: '/about' },
  { label: 'Banking Products', to: '/#products' },
] as const;

/**
 * The top of every public page: logo, About us, Banking Products, Get Started. The frame
 * puts it in the page's <header> together with the sandbox label.
 */
export function PublicHeader() {
  const me = useMe();
  // Someone signed in goes back in: a customer to the dashboard, staff to the back office.
  const action = me
    ? { label: isStaffRole(me.role) ? 'Back office' : 'Dashboard', to: homePathFor(me.role) }
    : { label: 'Get Started', to: '/signup' };
  return (
    <Container size="lg" py="md" w="100%">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Brand />
        <Group gap="lg" wrap="nowrap" component="nav" aria-label="Site" visibleFrom="sm">
          {links.map((link) => (
            <Anchor key={link.to} component={Link} to={link.to} c="inherit" fw={500}>
              {link.label}
            </Anchor>
          ))}
          <Button component={Link} to={action.to}>
            {action.label}
          </Button>
        </Group>
        <Group gap="xs" wrap="nowrap" hiddenFrom="sm">
          <Button component={Link} to={action.to} size="xs">
            {action.label}
          </Button>
          {/* Kept in the page and out of a portal, so the server-rendered landing page has
              it too (its script opens it: features/landing/static-page.ts). */}
          <Menu
            position="bottom-end"
            width={200}
            shadow="md"
            keepMounted
            keepMountedMode="display-none"
            withinPortal={false}
            // Its focus placeholder would be a child a menu may not have (axe).
            withInitialFocusPlaceholder={false}
          >
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Site menu">
                <MenuIcon size={20} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {links.map((link) => (
                <Menu.Item key={link.to} component={Link} to={link.to}>
                  {link.label}
                </Menu.Item>
              ))}
              {!me && (
                <Menu.Item component={Link} to="/signin">
                  Login
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Container>
  );
}
