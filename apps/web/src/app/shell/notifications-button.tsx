import { Bell } from 'lucide-react';
import { DeferredDropdown } from '../../components/deferred-dropdown.tsx';

const loadDropdown = async () =>
  (await import('./notifications-dropdown.tsx')).NotificationsDropdown;

/** The bell in the top bar. */
export function NotificationsButton() {
  return (
    <DeferredDropdown
      label="Notifications"
      icon={<Bell size={20} aria-hidden />}
      load={loadDropdown}
    />
  );
}
