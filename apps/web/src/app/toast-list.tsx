import { useMediaQuery } from '@mantine/hooks';
import { Notifications } from '@mantine/notifications';
import { toastDurationsMs } from '../lib/toasts.ts';

/**
 * Where toasts appear: bottom-right beside a wide page; at the top of a phone, where a
 * page's own actions are not (at the bottom, "Loan approved" covered the Disburse button
 * below it). Toasts close after 5 s unless a caller asks otherwise (PRODUCT.md 5).
 */
export function ToastList() {
  const isPhone = useMediaQuery('(max-width: 48em)');
  return (
    <Notifications
      autoClose={toastDurationsMs.standard}
      limit={5}
      position={isPhone ? 'top-center' : 'bottom-right'}
    />
  );
}
