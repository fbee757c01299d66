import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';
import type { TargetDialogProps } from './use-dialog-target.ts';

/**
 * A centred modal about one target (a row of a table), whose content stays while the
 * modal fades out: the staff decision dialogs share it.
 */
export function TargetModal<Target>({
  target,
  opened,
  onClose,
  onExited,
  title,
  children,
}: TargetDialogProps<Target> & { title: string; children: (target: Target) => ReactNode }) {
  return (
    <Modal opened={opened} onClose={onClose} onExitTransitionEnd={onExited} title={title} centered>
      {target && children(target)}
    </Modal>
  );
}
