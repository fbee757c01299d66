import { singleLineText } from './text.ts';
import { z } from './zod.ts';

export const accountKinds = [
  'customer',
  'settlement',
  'fees',
  'bill_clearing',
  'payout_clearing',
  'loan_receivable',
  'sandbox_funding',
  'card_clearing',
  // The interest borrowers pay (migration 0014).
  'interest_income',
  // Exchange between currencies (migration 0046, ADR 051): the operator's holding of each
  // currency, the markup it earns, and the whole minor units rounding leaves it.
  'fx_position',
  'fx_income',
  'fx_rounding',
] as const;
export type AccountKind = (typeof accountKinds)[number];
export type SystemAccountKind = Exclude<AccountKind, 'customer'>;

export const entryKinds = [
  'deposit',
  'transfer',
  'payout',
  'payout_reversal',
  'bill_payment',
  'fee',
  'loan_disbursement',
  'loan_repayment',
  'adjustment',
  'card_purchase',
  'exchange',
] as const;
export type EntryKind = (typeof entryKinds)[number];
export const entryKindSchema = z.enum(entryKinds);

/**
 * The longest memo a journal entry takes. Memos are built from people's text (a reason, a
 * reference, a note), so the schemas of that text keep it short enough to fit.
 */
export const memoLengthMax = 500;

/**
 * The reference of money that moved outside Coffer (an incoming wire, a payout's bank or
 * network transaction id) as staff type it; memos quote it.
 */
export const externalReferenceLengthMax = 100;
export const externalReferenceSchema = singleLineText({ max: externalReferenceLengthMax });

/** How each kind of journal entry reads to people: on statements, lists and staff pages. */
export const entryKindLabels: Record<EntryKind, string> = {
  deposit: 'Deposit',
  transfer: 'Transfer',
  payout: 'Withdrawal',
  payout_reversal: 'Withdrawal reversal',
  bill_payment: 'Bill payment',
  fee: 'Fee',
  loan_disbursement: 'Loan disbursement',
  loan_repayment: 'Loan repayment',
  adjustment: 'Adjustment',
  card_purchase: 'Card purchase',
  exchange: 'Exchange',
};

/** The label of a kind the API sent as text; a kind this build does not know reads as is. */
export function entryKindLabel(kind: string): string {
  const parsed = entryKindSchema.safeParse(kind);
  return parsed.success ? entryKindLabels[parsed.data] : kind;
}

/** A 10-digit account number: nine digits and a Luhn check digit. */
export const accountNumberSchema = z
  .string()
  .check(
    z.trim(),
    z.regex(/^\d{10}$/, 'An account number has 10 digits'),
    z.refine(hasValidCheckDigit, 'This account number is not valid'),
  );

/** Luhn (mod 10) over all ten digits: catches any single mistyped digit and most swaps. */
export function hasValidCheckDigit(accountNumber: string): boolean {
  if (!/^\d+$/.test(accountNumber)) return false;
  let sum = 0;
  for (let position = 0; position < accountNumber.length; position += 1) {
    const digit = Number(accountNumber[accountNumber.length - 1 - position]);
    const weighted = position % 2 === 1 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return sum % 10 === 0;
}

/** The check digit that makes `payload` followed by it pass `hasValidCheckDigit`. */
export function checkDigitFor(payload: string): string {
  for (let candidate = 0; candidate <= 9; candidate += 1) {
    if (hasValidCheckDigit(payload + candidate)) return String(candidate);
  }
  throw new Error('unreachable: one of ten digits always completes a Luhn number');
}

export const historyQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.regex(/^\d{1,19}$/, 'Not a valid page cursor'))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
});

export const ledgerHealthResponseSchema = z.object({
  isBalanced: z.boolean(),
  violations: z.array(z.string()),
});
