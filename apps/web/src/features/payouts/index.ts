import { msg } from '@lingui/core/macro';
// What other features may use from payouts: the transfer page's Withdraw tab and the back
// office's customer page.
import { onDemand } from '../../components/on-demand.tsx';

// Both load when shown: neither is on the first screen of the page that shows it.
export const CustomerPayoutsTab = onDemand(
  async () => (await import('./components/customer-payouts-tab.tsx')).CustomerPayoutsTab,
  msg`Loading payouts`,
);
export const PayoutForm = onDemand(
  async () => (await import('./components/payout-form.tsx')).PayoutForm,
  msg`Loading the withdrawal form`,
);
