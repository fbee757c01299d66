import { msg } from '@lingui/core/macro';
// What other features may use from cards: the back office's customer page.
import { onDemand } from '../../components/on-demand.tsx';

// Loaded when the back office opens the tab.
export const CustomerCardsTab = onDemand(
  async () => (await import('./components/customer-cards-tab.tsx')).CustomerCardsTab,
  msg`Loading cards`,
);
