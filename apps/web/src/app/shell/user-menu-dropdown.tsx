import { languageNames } from '@coffer/contracts/languages';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import {
  type MantineColorScheme,
  Menu,
  Text,
  useMantineColorScheme,
  VisuallyHidden,
} from '@mantine/core';
import { Check, Languages, LogOut, Monitor, Moon, Sun, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import {
  type TopBarDropdownProps,
  useOpenedOnceLoaded,
} from '../../components/deferred-dropdown.tsx';
import { useChooseLanguage } from '../../lib/language-choice.ts';
import { useLogout, useMe } from '../../lib/session.ts';
import { useSite } from '../../lib/site.ts';

const colorSchemeChoices: {
  value: MantineColorScheme;
  label: MessageDescriptor;
  icon: typeof Sun;
}[] = [
  { value: 'light', label: msg`Light`, icon: Sun },
  { value: 'dark', label: msg`Dark`, icon: Moon },
  { value: 'auto', label: msg`Match device`, icon: Monitor },
];

/** A menu item's mark that it is the current choice, for eyes and for screen readers. */
function SelectedMark() {
  return (
    <>
      <Check size={16} aria-hidden />
      <VisuallyHidden>
        <Trans>(selected)</Trans>
      </VisuallyHidden>
    </>
  );
}

/** The languages the operator offers, each in its own name; the page switches at once. */
function LanguageItems() {
  const { i18n } = useLingui();
  const enabled = useSite()?.languages ?? [];
  const chooseLanguage = useChooseLanguage();
  if (enabled.length < 2) return null;
  return (
    <>
      <Menu.Divider />
      <Menu.Label>
        <Trans>Language</Trans>
      </Menu.Label>
      {enabled.map((language) => (
        <Menu.Item
          key={language}
          lang={language}
          leftSection={<Languages size={16} aria-hidden />}
          rightSection={i18n.locale === language ? <SelectedMark /> : null}
          disabled={chooseLanguage.isPending}
          onClick={() => chooseLanguage.mutate(language)}
        >
          {languageNames[language]}
        </Menu.Item>
      ))}
    </>
  );
}

/** The user menu's dropdown: who is signed in, their profile, appearance and Logout. */
export function UserMenuDropdown({ target }: TopBarDropdownProps) {
  const me = useMe();
  const logout = useLogout();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const { i18n } = useLingui();
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
              <Trans>Profile</Trans>
            </Menu.Item>
            <Menu.Divider />
          </>
        )}
        <Menu.Label>
          <Trans>Appearance</Trans>
        </Menu.Label>
        {colorSchemeChoices.map((choice) => {
          const isSelected = colorScheme === choice.value;
          return (
            <Menu.Item
              key={choice.value}
              leftSection={<choice.icon size={16} aria-hidden />}
              rightSection={isSelected ? <SelectedMark /> : null}
              onClick={() => setColorScheme(choice.value)}
            >
              {i18n._(choice.label)}
            </Menu.Item>
          );
        })}
        <LanguageItems />
        <Menu.Divider />
        <Menu.Item
          leftSection={<LogOut size={16} aria-hidden />}
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          <Trans>Logout</Trans>
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
