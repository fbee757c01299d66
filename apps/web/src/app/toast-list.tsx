import { Notifications } from '@mantine/notifications';
import { toastDurationsMs } from '../lib/toasts.ts';

/** Where toasts appear. Toasts close after 5 s unless a caller asks otherwise (PRODUCT.md 5). */
export function ToastList() {
  return <Notifications autoClose={toastDurationsMs.standard} limit={5} />;
}
