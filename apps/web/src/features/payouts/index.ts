// What other features may use from payouts: the transfer page's Withdraw tab and the back
// office's customer page.
export { CustomerPayoutsTab } from './components/customer-payouts-tab.tsx';
export { PayoutForm } from './components/payout-form.tsx';
