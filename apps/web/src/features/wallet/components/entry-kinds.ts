import { type EntryKind, entryKinds } from '@coffer/contracts/ledger';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';

/** What each kind of ledger entry is called on the customer's pages, in their language. */
const entryKindMessages: Record<EntryKind, MessageDescriptor> = {
  deposit: msg`Deposit`,
  transfer: msg`Transfer`,
  payout: msg`Withdrawal`,
  payout_reversal: msg`Withdrawal reversal`,
  bill_payment: msg`Bill payment`,
  fee: msg`Fee`,
  loan_disbursement: msg`Loan disbursement`,
  loan_repayment: msg`Loan repayment`,
  adjustment: msg`Adjustment`,
  card_purchase: msg`Card purchase`,
  exchange: msg`Exchange`,
};

function isEntryKind(kind: string): kind is EntryKind {
  return (entryKinds as readonly string[]).includes(kind);
}

/**
 * The label of an entry's kind in the page's language; a kind this build does not know
 * (the API sends it as text) reads as sent.
 */
export function useEntryKindLabel(): (kind: string) => string {
  const { i18n } = useLingui();
  return (kind) => (isEntryKind(kind) ? i18n._(entryKindMessages[kind]) : kind);
}
