// What other features may use from notifications: the profile's email switch.
export { NotificationEmailSwitch } from './components/notification-email-switch.tsx';
