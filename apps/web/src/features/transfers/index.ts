// What other features may use from transfers: the dashboard's Quick Pay dialog.
export { QuickPayDialog } from './components/quick-pay-dialog.tsx';
