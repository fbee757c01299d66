import { type EntryKind, entryKinds } from '@coffer/contracts/ledger';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';

/**
 * What each kind of ledger entry is called, in the page's language, on the customer's pages
 * and on staff's (the API's statements write the contracts' own names); with a context of
 * their own, apart from the same words elsewhere (the menu's Transfer is a verb). In the
 * frame's catalog, which every page has: a list of lines may show any kind.
 */
const entryKindMessages: Record<EntryKind, MessageDescriptor> = {
  deposit: msg({ message: 'Deposit', context: 'kind of ledger entry' }),
  transfer: msg({ message: 'Transfer', context: 'kind of ledger entry' }),
  payout: msg({ message: 'Withdrawal', context: 'kind of ledger entry' }),
  payout_reversal: msg({ message: 'Withdrawal reversal', context: 'kind of ledger entry' }),
  bill_payment: msg({ message: 'Bill payment', context: 'kind of ledger entry' }),
  fee: msg({ message: 'Fee', context: 'kind of ledger entry' }),
  loan_disbursement: msg({ message: 'Loan disbursement', context: 'kind of ledger entry' }),
  loan_repayment: msg({ message: 'Loan repayment', context: 'kind of ledger entry' }),
  adjustment: msg({ message: 'Adjustment', context: 'kind of ledger entry' }),
  card_purchase: msg({ message: 'Card purchase', context: 'kind of ledger entry' }),
  exchange: msg({ message: 'Exchange', context: 'kind of ledger entry' }),
};

function isEntryKind(kind: string): kind is EntryKind {
  return (entryKinds as readonly string[]).includes(kind);
}

/**
 * The label of an entry's kind in `i18n`'s language; a kind this build does not know (the
 * API sends it as text) reads as sent.
 */
export function entryKindLabel(i18n: I18n, kind: string): string {
  return isEntryKind(kind) ? i18n._(entryKindMessages[kind]) : kind;
}

/** `entryKindLabel` in the page's language, for a component. */
export function useEntryKindLabel(): (kind: string) => string {
  const { i18n } = useLingui();
  return (kind) => entryKindLabel(i18n, kind);
}
