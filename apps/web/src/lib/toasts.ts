import { notifications } from '@mantine/notifications';

/** Toast durations from PRODUCT.md section 5; everything else uses the 5 s default. */
export const toastDurationsMs = {
  standard: 5_000,
  login: 3_000,
  passwordReset: 4_000,
} as const;

export function showSuccessToast(message: string, autoCloseMs: number = toastDurationsMs.standard) {
  notifications.show({ message, color: 'green', autoClose: autoCloseMs });
}

export function showErrorToast(message: string) {
  notifications.show({ message, color: 'red', autoClose: toastDurationsMs.standard });
}
