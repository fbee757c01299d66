// What other features may use from notifications: the profile's email switch; and for the
// frame's bell, its query, Mark all read and the list of items.
export {
  bellQueryOptions,
  markAllNotificationsRead,
  notificationsQueryRoot,
} from './api.ts';
export { NotificationEmailSwitch } from './components/notification-email-switch.tsx';
export { NotificationItems } from './components/notification-items.tsx';
