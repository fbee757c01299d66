import { Popover, Text } from '@mantine/core';
import {
  type TopBarDropdownProps,
  useOpenedOnceLoaded,
} from '../../components/deferred-dropdown.tsx';

/** There is no notification feed yet, so the bell's dropdown says so plainly. */
export function NotificationsDropdown({ target }: TopBarDropdownProps) {
  const [isOpen, setIsOpen] = useOpenedOnceLoaded();
  return (
    <Popover
      position="bottom-end"
      width={260}
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      opened={isOpen}
      onChange={setIsOpen}
    >
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown>
        <Text size="sm">You have no notifications.</Text>
      </Popover.Dropdown>
    </Popover>
  );
}
