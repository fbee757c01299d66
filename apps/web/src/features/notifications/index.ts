// What other features may use from notifications: the profile's email switch; and for the
// frame's bell, its query and Mark all read (the frame then loads this feature's catalog).
export {
  bellQueryOptions,
  markAllNotificationsRead,
  notificationsQueryRoot,
} from './api.ts';
export { NotificationEmailSwitch } from './components/notification-email-switch.tsx';
