// Filing a dispute (issue #31 item 9): what each kind of line asks, and the body the form
// and the API share. Apart from disputes.ts so that the staff's pages, which only read
// disputes, do not load the customer's form rules.
import {
  type DisputeProblemType,
  disputeDescriptionLengthMax,
  disputeProblemTypes,
  invalidDisputeAmountMessage,
} from './disputes.ts';
import { type EntryKind, entryKindSchema } from './ledger.ts';
import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

/**
 * What a dispute is about, which decides what the form asks: `general` is no transaction
 * in particular (the amount and the recipient typed), every other kind starts from one of
 * the customer's transactions and takes its amount and counterparty from the ledger.
 */
export const disputeKinds = [
  'general',
  'card',
  'transfer',
  'bill',
  'deposit',
  'withdrawal',
  'account',
] as const;
export type DisputeKind = (typeof disputeKinds)[number];
export type TransactionDisputeKind = Exclude<DisputeKind, 'general'>;

/** The kind of dispute each kind of ledger entry makes. */
export const disputeKindOfEntry: Record<EntryKind, TransactionDisputeKind> = {
  card_purchase: 'card',
  transfer: 'transfer',
  bill_payment: 'bill',
  deposit: 'deposit',
  payout: 'withdrawal',
  payout_reversal: 'withdrawal',
  fee: 'account',
  loan_disbursement: 'account',
  loan_repayment: 'account',
  adjustment: 'account',
  exchange: 'account',
};

/** The kind of dispute a line of the API's `kind` text makes; an unknown kind is `account`. */
export function disputeKindOfEntryText(kind: string): TransactionDisputeKind {
  const parsed = entryKindSchema.safeParse(kind);
  return parsed.success ? disputeKindOfEntry[parsed.data] : 'account';
}

/**
 * The problems each kind offers, in the customer's words for that kind of line (what a
 * person says about a card purchase is not what they say about a bank transfer).
 */
export const disputeProblemChoices = {
  general: {
    withdrawal_not_working: 'Withdrawal not working',
    deposit_not_working: 'Deposit not working',
    unauthorized_transaction: 'Unauthorized transaction',
    other: 'Other',
  },
  card: {
    unauthorized_transaction: "I didn't make this purchase",
    charged_twice: 'I was charged twice',
    goods_not_received: "I didn't receive the goods or service",
    wrong_amount: 'The amount is wrong',
    other: 'Something else',
  },
  transfer: {
    unauthorized_transaction: "I didn't make this payment",
    wrong_amount: 'The amount is wrong',
    other: 'Something else',
  },
  bill: {
    unauthorized_transaction: "I didn't pay this bill",
    charged_twice: 'I was charged twice',
    wrong_amount: 'The amount is wrong',
    other: 'Something else',
  },
  deposit: {
    deposit_not_working: 'Part of the deposit is missing',
    wrong_amount: 'The amount is wrong',
    other: 'Something else',
  },
  withdrawal: {
    withdrawal_not_working: 'The money did not arrive',
    unauthorized_transaction: "I didn't make this withdrawal",
    wrong_amount: 'The amount is wrong',
    other: 'Something else',
  },
  account: {
    unauthorized_transaction: "I don't recognise this",
    wrong_amount: 'The amount is wrong',
    other: 'Something else',
  },
} as const satisfies Record<DisputeKind, Partial<Record<DisputeProblemType, string>>>;

/** The problem types a kind offers, as a list (the form's options, the schema's enum). */
export function disputeProblemTypesOf(kind: DisputeKind): DisputeProblemType[] {
  return Object.keys(disputeProblemChoices[kind]).filter((type): type is DisputeProblemType =>
    (disputeProblemTypes as readonly string[]).includes(type),
  );
}

/** The typed amount, checked for its currency's precision by the server. */
const disputeAmountSchema = singleLineText({ max: 40, tooLong: invalidDisputeAmountMessage }).check(
  z.minLength(1, 'Enter the amount'),
  z.regex(/^\d{1,16}(?:\.\d{1,4})?$/, invalidDisputeAmountMessage),
  z.refine((text) => /[1-9]/.test(text), invalidDisputeAmountMessage),
);

const problemTypeOf = (kind: DisputeKind) =>
  z.enum(disputeProblemTypesOf(kind), 'Choose a problem type');

const disputeDescriptionSchema = multiLineText({ max: disputeDescriptionLengthMax }).check(
  z.minLength(1, 'Describe the problem'),
);

/** One of the customer's own transactions (a journal entry id). */
const disputedEntryIdSchema = z.uuid('Choose a transaction from the list');

/** Only for an unauthorized transaction: freeze the account at once (staff unfreeze it). */
const freezeAccountSchema = z.optional(z.boolean());

const transactionDisputeFields = {
  entryId: disputedEntryIdSchema,
  /** Prefilled with the line's amount; less when only part of it is wrong. */
  amount: disputeAmountSchema,
  description: disputeDescriptionSchema,
};

/** A dispute about a transaction of a kind with nothing of its own to ask. */
function transactionDisputeSchema<Kind extends Exclude<TransactionDisputeKind, 'card'>>(
  kind: Kind,
) {
  return z.strictObject({
    kind: z.literal(kind),
    ...transactionDisputeFields,
    problemType: problemTypeOf(kind),
    freezeAccount: freezeAccountSchema,
  });
}

/**
 * A dispute as filed: the fields its kind needs and no others. A transaction's dispute names
 * no recipient (the ledger knows the other side); a card purchase may freeze just the card.
 * A field of another kind is refused, not dropped; the server checks that the kind is the
 * named transaction's.
 */
export const disputeBodySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('general'),
    amount: disputeAmountSchema,
    recipientAccountNumber: singleLineText({ max: 50 }).check(
      z.minLength(1, "Enter the recipient's account number"),
    ),
    problemType: problemTypeOf('general'),
    description: disputeDescriptionSchema,
    freezeAccount: freezeAccountSchema,
  }),
  z.strictObject({
    kind: z.literal('card'),
    ...transactionDisputeFields,
    problemType: problemTypeOf('card'),
    /** Freeze the card that made the purchase (the customer's own freeze, which they may lift). */
    freezeCard: z.optional(z.boolean()),
  }),
  transactionDisputeSchema('transfer'),
  transactionDisputeSchema('bill'),
  transactionDisputeSchema('deposit'),
  transactionDisputeSchema('withdrawal'),
  transactionDisputeSchema('account'),
]);
export type DisputeBody = z.infer<typeof disputeBodySchema>;
