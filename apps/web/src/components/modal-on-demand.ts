import type { ModalProps } from '@mantine/core';
import { dialogOnDemand } from './on-demand.tsx';

/**
 * Mantine's Modal, loaded when a dialog first opens: with its scroll lock, focus trap and
 * ScrollArea it is about 10 KB gzipped that a page showing no dialog yet does not need on
 * its first load (apps/web/budgets.json).
 */
export const ModalOnDemand = dialogOnDemand<ModalProps>(
  async () => (await import('./modal.tsx')).Modal,
);
