// What other features may use from deposits (the back office's customer page shows them).
import { onDemand } from '../../components/on-demand.tsx';

export { customerMoneyRequestsQueryOptions } from './api.ts';
/** The customer page's Account Actions card (Mantine's form, Textarea). */
export const loadAccountActionsCard = async () =>
  (await import('./components/account-actions-card.tsx')).AccountActionsCard;
// Loaded when the back office opens the tab.
export const MoneyRequestsTab = onDemand(
  async () => (await import('./components/money-requests-tab.tsx')).MoneyRequestsTab,
  'Loading money requests',
);
