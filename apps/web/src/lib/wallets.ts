import { type WalletListItem, walletListSchema } from '@coffer/contracts/wallets';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client.ts';

/**
 * Every wallet with its balance, and their total in the main currency as an estimate: read
 * by the wallet pages and by the money forms that let the customer choose the wallet they
 * pay from. Its key starts with 'wallet', so a live `wallet` event refreshes it.
 */
export const walletsQueryOptions = queryOptions({
  queryKey: ['wallet', 'list'],
  queryFn: ({ signal }) =>
    apiRequest({ path: '/api/v1/wallets', schema: walletListSchema, signal }),
});

/** The customer's wallets to pay from, or null when they hold one (or the list is loading). */
export function useChoosableWallets(): readonly WalletListItem[] | null {
  const wallets = useQuery(walletsQueryOptions);
  const items = wallets.data?.items ?? [];
  return items.length > 1 ? items : null;
}

/**
 * The wallet a form pays from: the chosen one, or the main one for '' (a money form's
 * `walletId` value when nothing else was chosen, sent as no choice at all).
 */
export function payingWalletOf(
  wallets: readonly WalletListItem[] | null,
  walletId: string,
): WalletListItem | null {
  return (
    wallets?.find((wallet) => (walletId === '' ? wallet.isMain : wallet.id === walletId)) ?? null
  );
}

/** The request's `walletId` for a form's choice: nothing for the main wallet (''). */
export function chosenWalletOf(walletId: string): { walletId?: string } {
  return walletId === '' ? {} : { walletId };
}

/** How a confirmation names the wallet a payment leaves from: "JPY wallet · 1234567890". */
export function walletNameOf(wallet: WalletListItem): string {
  const { currency, accountNumber } = wallet;
  return i18n._(msg`${currency} wallet · ${accountNumber}`);
}
