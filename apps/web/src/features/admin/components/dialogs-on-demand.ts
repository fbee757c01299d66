import { dialogOnDemand } from '../../../components/on-demand.tsx';

// The back office's customer dialogs load when one first opens: their forms, inputs and
// modal are not on the customer list's or a customer's first screen.

export const FreezeDialog = dialogOnDemand(
  async () => (await import('./freeze-dialog.tsx')).FreezeDialog,
);
export const LevelDialog = dialogOnDemand(
  async () => (await import('./level-dialog.tsx')).LevelDialog,
);
export const RoleDialog = dialogOnDemand(
  async () => (await import('./role-dialog.tsx')).RoleDialog,
);
export const MarkupDialog = dialogOnDemand(
  async () => (await import('./markup-dialog.tsx')).MarkupDialog,
);
