// What other features may use from disputes: the back office's customer page.
export { CustomerDisputesTab } from './components/customer-disputes-tab.tsx';
