// What other features may use from wallet: the list of the customer's wallets.
export { walletsQueryOptions } from './api.ts';
