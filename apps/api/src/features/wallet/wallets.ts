import type { CurrencyCode } from '@coffer/contracts/currencies';
import { minorUnits } from '@coffer/contracts/money';
import {
  type WalletList,
  type WalletListItem,
  walletOpeningLevelMin,
} from '@coffer/contracts/wallets';
import { estimateIn } from '../../fx/estimate.ts';
import { findOwnWallet, listCustomerWallets } from '../../ledger/wallets.ts';
import { accountIban } from '../../platform/account-iban.ts';
import { AppError } from '../../platform/app-error.ts';
import type { CustomerWallet, WalletDeps } from './service.ts';

/** One of the customer's wallets by id, or the main one; another's reads as not found. */
export async function requireOwnWallet(
  deps: WalletDeps,
  userId: string,
  walletId: string | undefined,
): Promise<CustomerWallet> {
  const wallet = await findOwnWallet(deps.db, userId, walletId);
  if (!wallet) throw new AppError('not_found', { message: 'You have no such wallet.' });
  return { ...wallet, ownerUserId: userId };
}

async function levelOf(deps: WalletDeps, userId: string): Promise<number> {
  const found = await deps.db.query<{ level: number }>('SELECT level FROM users WHERE id = $1', [
    userId,
  ]);
  return found.rows[0]?.level ?? 0;
}

/** Every wallet with its balance, and their total in the main currency as an estimate. */
export async function walletList(deps: WalletDeps, userId: string): Promise<WalletList> {
  const wallets = await listCustomerWallets(deps.db, userId);
  const main = wallets.find((wallet) => wallet.isMain);
  if (!main) throw new AppError('not_found', { message: 'You have no wallet.' });
  const now = new Date();
  const items: WalletListItem[] = [];
  let total: bigint | null = 0n;
  for (const wallet of wallets) {
    const balance = await deps.ledger.balance(wallet.id);
    const estimate = estimateIn(
      deps.config.fx,
      { amountMinor: balance.balanceMinor, currency: wallet.currency },
      main.currency,
      now,
    );
    total = total === null || estimate === null ? null : total + estimate;
    items.push({
      id: wallet.id,
      accountNumber: wallet.number,
      iban: deps.config.ibanScheme ? accountIban(deps.config.ibanScheme, wallet.number) : null,
      currency: wallet.currency,
      isMain: wallet.isMain,
      balanceMinor: minorUnits(balance.balanceMinor),
      heldMinor: minorUnits(balance.heldMinor),
      availableMinor: minorUnits(balance.availableMinor),
      estimateInMainMinor: estimate === null ? null : minorUnits(estimate),
    });
  }
  const held = new Set<string>(wallets.map((wallet) => wallet.currency));
  return {
    mainCurrency: main.currency,
    items,
    totalEstimateMinor: total === null ? null : minorUnits(total),
    openableCurrencies: deps.config.fx.currencies.filter((code) => !held.has(code)),
    canOpen: (await levelOf(deps, userId)) >= walletOpeningLevelMin,
  };
}

/**
 * Opens a wallet in an offered currency the customer does not hold, at level 2 or above;
 * its own account number, balance, statements and the currency's limits come with it.
 */
export async function openAnotherWallet(
  deps: WalletDeps,
  userId: string,
  currency: CurrencyCode,
): Promise<WalletListItem> {
  if (!deps.config.fx.currencies.includes(currency)) throw new AppError('currency_not_offered');
  if ((await levelOf(deps, userId)) < walletOpeningLevelMin) {
    throw new AppError('level_too_low', {
      message: `Opening a wallet in another currency needs level ${walletOpeningLevelMin}. Verify your identity first.`,
    });
  }
  const opened = await deps.db.transaction(async (tx) => {
    // One customer's openings one after the other: the check below cannot race itself.
    await tx.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [userId]);
    return deps.ledger.openWallet(userId, currency, tx, false);
  });
  return {
    id: opened.id,
    accountNumber: opened.number,
    iban: deps.config.ibanScheme ? accountIban(deps.config.ibanScheme, opened.number) : null,
    currency,
    isMain: false,
    balanceMinor: minorUnits(0n),
    heldMinor: minorUnits(0n),
    availableMinor: minorUnits(0n),
    estimateInMainMinor: minorUnits(0n),
  };
}
