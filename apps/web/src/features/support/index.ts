import { msg } from '@lingui/core/macro';
// What other features may use from support: the back office's customer page.
import { onDemand } from '../../components/on-demand.tsx';

// Loaded when the back office opens the tab.
export const CustomerMessagesTab = onDemand(
  async () => (await import('./components/customer-messages-tab.tsx')).CustomerMessagesTab,
  msg`Loading messages`,
);
