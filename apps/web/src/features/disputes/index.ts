import { msg } from '@lingui/core/macro';
// What other features may use from disputes: the back office's customer page.
import { onDemand } from '../../components/on-demand.tsx';

// Loaded when the back office opens the tab.
export const CustomerDisputesTab = onDemand(
  async () => (await import('./components/customer-disputes-tab.tsx')).CustomerDisputesTab,
  msg`Loading disputes`,
);
