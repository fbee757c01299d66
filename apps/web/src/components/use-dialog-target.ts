import { useRef, useState } from 'react';

/**
 * What a dialog is about (a row of a table). The target outlives the dialog's closing
 * animation, so the dialog does not go blank while it fades out. A dialog opened from a
 * menu item cannot return focus to it (the menu has closed), so the caller may name the
 * element that should have focus afterwards, such as the menu's button.
 */
export function useDialogTarget<Target>() {
  const [target, setTarget] = useState<Target | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const returnFocusTo = useRef<HTMLElement | null>(null);
  return {
    target,
    open: (next: Target, focusAfterClose: HTMLElement | null = null) => {
      returnFocusTo.current = focusAfterClose;
      setTarget(next);
      setIsOpen(true);
    },
    dialogProps: {
      opened: isOpen,
      onClose: () => setIsOpen(false),
      onExited: () => {
        setTarget(null);
        returnFocusTo.current?.focus();
        returnFocusTo.current = null;
      },
    },
  };
}

/** What a dialog opened through useDialogTarget receives: its target and open state. */
export type TargetDialogProps<Target> = { target: Target | null } & ReturnType<
  typeof useDialogTarget<Target>
>['dialogProps'];
