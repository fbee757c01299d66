import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import type { AccountId, Ledger } from '../src/ledger/ledger.ts';
import { newId } from '../src/platform/ids.ts';

export const usd = toCurrencyCode('USD');

/** A customer wallet, funded from the settlement account when `balance` is given. */
export async function createWallet(
  ledger: Ledger,
  options: { currency?: CurrencyCode; balance?: string } = {},
): Promise<AccountId> {
  const currency = options.currency ?? usd;
  const wallet = await ledger.openWallet(newId(), currency);
  if (options.balance !== undefined) {
    const amountMinor = parseAmount(options.balance, currency);
    if (amountMinor > 0n) await deposit(ledger, wallet.id, amountMinor, currency);
  }
  return wallet.id;
}

export async function deposit(
  ledger: Ledger,
  accountId: AccountId,
  amountMinor: bigint,
  currency: CurrencyCode = usd,
): Promise<void> {
  const settlement = await ledger.systemAccount('settlement', currency);
  await ledger.post({
    kind: 'deposit',
    memo: 'test deposit',
    lines: [
      { accountId: settlement, amountMinor: -amountMinor },
      { accountId, amountMinor },
    ],
  });
}

export function transferLines(from: AccountId, to: AccountId, amountMinor: bigint) {
  return [
    { accountId: from, amountMinor: -amountMinor },
    { accountId: to, amountMinor },
  ];
}
