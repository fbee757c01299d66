// What other features may use from support: the back office's customer page.
export { CustomerMessagesTab } from './components/customer-messages-tab.tsx';
