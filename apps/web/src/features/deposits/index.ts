// What other features may use from deposits (the back office's customer page shows them).
import { onDemand } from '../../components/on-demand.tsx';

export { customerMoneyRequestsQueryOptions } from './api.ts';
// The account actions' form (Mantine's form, SegmentedControl, Textarea) loads beside the
// customer page's code, not in it: the server renders it in place (it waits for code
// loaded on demand), and the browser hydrates it once its code is in (docs/decisions/030).
export const AccountActionsCard = onDemand(
  async () => (await import('./components/account-actions-card.tsx')).AccountActionsCard,
  'Loading account actions',
);
// Loaded when the back office opens the tab.
export const MoneyRequestsTab = onDemand(
  async () => (await import('./components/money-requests-tab.tsx')).MoneyRequestsTab,
  'Loading money requests',
);
