import { msg } from '@lingui/core/macro';
// What other features may use from kyc: the back office's customer page and list, and the
// dashboard's account-level notice.
import { onDemand } from '../../components/on-demand.tsx';

export { AccountLevelNotice } from './components/account-level-notice.tsx';
// The back office's KYC tab loads when shown: its submissions table, decision dialog and
// document viewer would otherwise come with this entry to every page that imports it, the
// customer's dashboard included (AccountLevelNotice).
export const CustomerKycTab = onDemand(
  async () => (await import('./components/customer-kyc-tab.tsx')).CustomerKycTab,
  msg`Loading verifications`,
);
export { KycStatusBadge } from './components/kyc-status-badge.tsx';
