import { msg } from '@lingui/core/macro';
// What other features may use from loans (the back office's customer page shows them).
import { onDemand } from '../../components/on-demand.tsx';

// Loaded when the back office opens the tab.
export const CustomerLoansTab = onDemand(
  async () => (await import('./components/customer-loans-tab.tsx')).CustomerLoansTab,
  msg`Loading loan requests`,
);
// Loaded when staff choose "Disburse loan": its Select brings Mantine's Combobox and
// Floating UI, which the customer page's first screen does not draw.
export const DisburseLoanForm = onDemand(
  async () => (await import('./components/disburse-loan-form.tsx')).DisburseLoanForm,
  msg`Loading the loan form`,
);
