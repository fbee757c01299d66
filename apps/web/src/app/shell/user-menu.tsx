import {
  ActionIcon,
  type MantineColorScheme,
  Menu,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { Check, CircleUserRound, Monitor, Moon, Sun } from 'lucide-react';

const colorSchemeChoices: { value: MantineColorScheme; label: string; icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon },
  { value: 'auto', label: 'Match device', icon: Monitor },
];

/**
 * The user menu. Until sessions exist it holds only the appearance choice; Profile and
 * Logout join it with the sign-in feature, not before, so nothing here pretends to work.
 */
export function UserMenu() {
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Menu position="bottom-end" width={200} shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="User menu">
          <CircleUserRound size={22} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
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
      </Menu.Dropdown>
    </Menu>
  );
}
