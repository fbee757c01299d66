import {
  type MantineColorScheme,
  Menu,
  Text,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { Check, LogOut, Monitor, Moon, Sun, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import {
  type TopBarDropdownProps,
  useOpenedOnceLoaded,
} from '../../components/deferred-dropdown.tsx';
import { useLogout, useMe } from '../../lib/session.ts';

const colorSchemeChoices: { value: MantineColorScheme; label: string; icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'auto', label: 'Match device', icon: Monitor },
];

/** The user menu's dropdown: who is signed in, their profile, appearance and Logout. */
export function UserMenuDropdown({ target }: TopBarDropdownProps) {
  const me = useMe();
  const logout = useLogout();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const [isOpen, setIsOpen] = useOpenedOnceLoaded();
  return (
    <Menu position="bottom-end" width={220} shadow="md" opened={isOpen} onChange={setIsOpen}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        {me && (
          <>
            <Menu.Label>
              <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
                {me.username}
              </Text>
              <Text size="xs" truncate>
                {me.email}
              </Text>
            </Menu.Label>
            <Menu.Item
              component={Link}
              to="/profile"
              leftSection={<UserRound size={16} aria-hidden />}
            >
              Profile
            </Menu.Item>
            <Menu.Divider />
          </>
        )}
        <Menu.Label>Appearance</Menu.Label>
        {colorSchemeChoices.map((choice) => {
          const isSelected = colorScheme === choice.value;
          return (
            <Menu.Item
              key={choice.value}
              leftSection={<choice.icon size={16} aria-hidden />}
              rightSection={
                isSelected ? (
                  <>
                    <Check size={16} aria-hidden />
                    <VisuallyHidden>(selected)</VisuallyHidden>
                  </>
                ) : null
              }
              onClick={() => setColorScheme(choice.value)}
            >
              {choice.label}
            </Menu.Item>
          );
        })}
        <Menu.Divider />
        <Menu.Item
          leftSection={<LogOut size={16} aria-hidden />}
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
