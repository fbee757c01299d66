// What other features may use from kyc: the back office's customer page and list, and the
// dashboard's account-level notice.
export { AccountLevelNotice } from './components/account-level-notice.tsx';
export { CustomerKycTab } from './components/customer-kyc-tab-on-demand.tsx';
export { KycStatusBadge } from './components/kyc-status-badge.tsx';
