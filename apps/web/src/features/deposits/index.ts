import { msg } from '@lingui/core/macro';
// What other features may use from deposits (the back office's customer page shows them).
import { onDemand } from '../../components/on-demand.tsx';

export { customerMoneyRequestsQueryOptions } from './api.ts';
export { AccountActionsCard } from './components/account-actions-card.tsx';
// Loaded when the back office opens the tab.
export const MoneyRequestsTab = onDemand(
  async () => (await import('./components/money-requests-tab.tsx')).MoneyRequestsTab,
  msg`Loading money requests`,
);
