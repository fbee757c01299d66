import { ActionIcon, Popover, Text } from '@mantine/core';
import { Bell } from 'lucide-react';

/** The bell in the top bar. There is no notification feed yet, so it says so plainly. */
export function NotificationsButton() {
  return (
    <Popover position="bottom-end" width={260} shadow="md" withArrow trapFocus returnFocus>
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Notifications">
          <Bell size={20} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="sm">You have no notifications.</Text>
      </Popover.Dropdown>
    </Popover>
  );
}
