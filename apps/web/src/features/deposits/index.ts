// What other features may use from deposits (the back office's customer page shows them).

export { customerMoneyRequestsQueryOptions } from './api.ts';
export { AccountActionsCard } from './components/account-actions-card.tsx';
export { MoneyRequestsTab } from './components/money-requests-tab.tsx';
