import type { Conversion } from '@coffer/contracts/exchange';
import type { AccountId, PostingLine } from './ledger.ts';

/** The accounts an exchange touches: the customer's two wallets and the operator's books. */
export type ExchangeAccounts = {
  sellWalletId: AccountId;
  receiveWalletId: AccountId;
  /** The operator's position in the sold currency: it takes what the customer sells. */
  sellPositionId: AccountId;
  /** The position in the received currency, and its markup and rounding accounts. */
  receivePositionId: AccountId;
  receiveIncomeId: AccountId;
  receiveRoundingId: AccountId;
};

/**
 * An exchange's lines, each side in its own currency (ADR 051). The sold currency: the
 * wallet pays, the position takes. The received currency: the position pays the mid value
 * rounded down; the wallet receives the quoted amount, the markup is income and the unit
 * the round-downs leave goes to fx_rounding. Each currency's lines sum to zero; a line of
 * zero (no markup, nothing left by rounding) is left out, as the ledger refuses it.
 */
export function exchangeLines(accounts: ExchangeAccounts, conversion: Conversion): PostingLine[] {
  const lines: PostingLine[] = [
    { accountId: accounts.sellWalletId, amountMinor: -conversion.sellMinor },
    { accountId: accounts.sellPositionId, amountMinor: conversion.sellMinor },
    { accountId: accounts.receivePositionId, amountMinor: -conversion.positionMinor },
    { accountId: accounts.receiveWalletId, amountMinor: conversion.receiveMinor },
    { accountId: accounts.receiveIncomeId, amountMinor: conversion.markupMinor },
    { accountId: accounts.receiveRoundingId, amountMinor: conversion.roundingMinor },
  ];
  return lines.filter((line) => line.amountMinor !== 0n);
}
