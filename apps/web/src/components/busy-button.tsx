import { Button, type ButtonProps, Loader } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A submit button that says what it is doing while busy ("Registering...") instead of
 * hiding its label behind a spinner, and cannot be pressed twice.
 */
export function BusyButton({
  isBusy,
  busyLabel,
  children,
  ...props
}: ButtonProps & {
  isBusy: boolean;
  busyLabel: string;
  children: ReactNode;
  type?: 'submit' | 'button';
  onClick?: () => void;
}) {
  return (
    <Button
      type="submit"
      {...props}
      disabled={isBusy || props.disabled}
      aria-busy={isBusy}
      leftSection={
        isBusy ? <Loader size={14} color="currentColor" aria-hidden /> : props.leftSection
      }
    >
      {isBusy ? busyLabel : children}
    </Button>
  );
}
