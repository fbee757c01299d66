import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

const ToastList = lazy(async () => ({ default: (await import('./toast-list.tsx')).ToastList }));

/**
 * Mounts the toasts' code with the first toast: most page loads show none, so they do not
 * download it. The toasts wait in Mantine's store meanwhile, and appear once it is there.
 */
export function ToastHost() {
  const { notifications, queue } = useNotifications();
  const [hasToasts, setHasToasts] = useState(false);
  if (!hasToasts && notifications.length + queue.length > 0) setHasToasts(true);
  if (!hasToasts) return null;
  return (
    <Suspense fallback={null}>
      <ToastList />
    </Suspense>
  );
}
