import { msg } from '@lingui/core/macro';
// What other features may use from bulk payments (the back office's customer page shows them).
import { onDemand } from '../../components/on-demand.tsx';

// Loaded when the back office opens the tab.
export const CustomerBulkPaymentsTab = onDemand(
  async () => (await import('./components/customer-bulk-payments-tab.tsx')).CustomerBulkPaymentsTab,
  msg`Loading bulk payments`,
);
