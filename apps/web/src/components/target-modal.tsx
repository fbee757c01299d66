import type { ReactNode } from 'react';
import { ModalOnDemand } from './modal-on-demand.ts';
import type { TargetDialogProps } from './use-dialog-target.ts';

/**
 * A centred modal about one target (a row of a table), whose content stays while the
 * modal fades out: the staff decision dialogs share it. Its modal loads when it first opens.
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
    <ModalOnDemand
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={title}
      centered
    >
      {target && children(target)}
    </ModalOnDemand>
  );
}
