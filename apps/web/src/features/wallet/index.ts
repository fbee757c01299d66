// What other features may use from wallet: the list of the customer's wallets, and the
// names of ledger entries' kinds in the page's language.
export { walletsQueryOptions } from './api.ts';
export { useEntryKindLabel } from './components/entry-kinds.ts';
