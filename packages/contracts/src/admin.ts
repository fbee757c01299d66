import { roles } from './auth.ts';
import { kycStatuses } from './kyc.ts';
import { externalReferenceSchema, memoLengthMax } from './ledger.ts';
import { accountLevelMax } from './limits.ts';
import { invalidStaffAmountMessage, minorUnitsSchema } from './money.ts';
import { termsAcceptanceSchema } from './terms.ts';
import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

const giveAReason = 'Please give a reason';

export const staffReasonLengthMax = 500;

/** Why staff did something: kept with the action and in the audit log. */
export const reasonSchema = multiLineText({ max: staffReasonLengthMax }).check(
  z.minLength(1, giveAReason),
);

export const customerListQuerySchema = z.object({
  search: z.optional(singleLineText({ max: 100 })),
  cursor: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 25),
});

/**
 * What a staff search term can be besides part of a name or email, each matched exactly:
 * a wallet's account number (10 digits), a phone (stored in E.164: the term's digits with
 * a leading + or 00), a card's last four digits, a dispute reference (REF- optional, any
 * case). Null where the term has not that shape. Spaces, dots, dashes and brackets in
 * numbers are ignored, as people read numbers out in groups.
 */
export type CustomerSearchIdentifiers = {
  accountNumber: string | null;
  phone: string | null;
  cardLastFour: string | null;
  disputeReference: string | null;
};

export function customerSearchIdentifiers(search: string): CustomerSearchIdentifiers {
  const compact = search.replace(/[\s.()-]/g, '');
  const isDigits = /^\d+$/.test(compact);
  const phoneDigits = /^(?:\+|00)?(\d{7,15})$/.exec(compact)?.[1] ?? null;
  const reference = /^(?:REF-?)?([A-Z0-9]{9})$/i.exec(search.trim())?.[1] ?? null;
  return {
    accountNumber: isDigits && compact.length === 10 ? compact : null,
    phone: phoneDigits === null ? null : `+${phoneDigits}`,
    cardLastFour: isDigits && compact.length === 4 ? compact : null,
    disputeReference: reference === null ? null : `REF-${reference.toUpperCase()}`,
  };
}

export const staffNameSchema = z.object({ id: z.string(), username: z.string() });

export const moneySchema = z.object({ amountMinor: minorUnitsSchema, currency: z.string() });

export const customerListItemSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** The legal name of an approved identity verification; null until then (issue #31). */
  legalName: z.nullable(z.string()),
  email: z.string(),
  role: z.enum(roles),
  balance: z.nullable(moneySchema),
  level: z.number().check(z.int()),
  isFrozen: z.boolean(),
  /** When the customer closed their account; null: open (ADR 050). */
  closedAt: z.nullable(z.string()),
  /** The latest identity verification's status; null: never submitted. */
  kycStatus: z.nullable(z.enum(kycStatuses)),
});

export const customerListSchema = z.object({
  totalUsers: z.number().check(z.int()),
  items: z.array(customerListItemSchema),
  nextCursor: z.nullable(z.string()),
});
export type CustomerList = z.infer<typeof customerListSchema>;

export const customerDetailSchema = z.object({
  id: z.string(),
  username: z.string(),
  /** The legal name of an approved identity verification; null until then (issue #31). */
  legalName: z.nullable(z.string()),
  email: z.string(),
  isEmailVerified: z.boolean(),
  phone: z.nullable(z.string()),
  country: z.string(),
  role: z.enum(roles),
  level: z.number().check(z.int()),
  isFrozen: z.boolean(),
  frozenReason: z.nullable(z.string()),
  /** When the customer closed their account; null: open (ADR 050). */
  closedAt: z.nullable(z.string()),
  hasTotp: z.boolean(),
  createdAt: z.string(),
  /** The terms and privacy notice the customer last accepted; null: none yet. */
  termsAcceptance: z.nullable(termsAcceptanceSchema),
  /** A grant of the admin role waiting for a second admin, if any. */
  pendingRoleGrant: z.nullable(
    z.object({
      id: z.string(),
      role: z.enum(roles),
      reason: z.string(),
      requestedBy: staffNameSchema,
      createdAt: z.string(),
    }),
  ),
  wallet: z.nullable(
    z.object({
      accountNumber: z.string(),
      currency: z.string(),
      balanceMinor: minorUnitsSchema,
      heldMinor: minorUnitsSchema,
      availableMinor: minorUnitsSchema,
      /** Principal the customer still owes on disbursed loans (the Loan Balance). */
      loanBalanceMinor: minorUnitsSchema,
      /**
       * The operator's approval figures in this currency (COFFER_LIMITS): staff postings
       * above the threshold, or past a maker's daily total, wait for a second admin. Null
       * when the currency has no limits: then every posting waits.
       */
      fourEyesThresholdMinor: z.nullable(minorUnitsSchema),
      fourEyesDailyTotalMinor: z.nullable(minorUnitsSchema),
    }),
  ),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const freezeBodySchema = z.object({ reason: reasonSchema });

export const setLevelBodySchema = z.object({
  level: z.coerce
    .number({ message: 'Please enter a valid account level' })
    .check(
      z.int('Please enter a valid account level'),
      z.gte(1, 'Please enter a valid account level'),
      z.lte(accountLevelMax, 'Please enter a valid account level'),
    ),
  reason: reasonSchema,
});

/**
 * Why a customer who becomes staff has their wallet frozen: staff never move money of
 * their own. Unfrozen again only if this is still the reason when they are a customer.
 */
export const staffFreezeReason = 'Staff accounts cannot move money.';

export const setRoleBodySchema = z.object({ role: z.enum(roles), reason: reasonSchema });

/**
 * A deposit's or adjustment's reason: a debit adjustment's memo is "Adjustment: {reason}",
 * so this leaves room under `memoLengthMax` for the words around it.
 */
export const moneyRequestReasonLengthMax = memoLengthMax - 100;

/**
 * Amount as typed ("1250.00"); parsed in the wallet's currency on the server. The reference
 * and the reason are written into the journal entry's memo, so they are shorter than other
 * staff text (`moneyRequestReasonLengthMax`).
 */
export const moneyRequestBodySchema = z.object({
  amount: singleLineText({ max: 40, tooLong: invalidStaffAmountMessage }).check(
    z.minLength(1, invalidStaffAmountMessage),
  ),
  externalReference: z.optional(externalReferenceSchema),
  reason: multiLineText({ max: moneyRequestReasonLengthMax }).check(z.minLength(1, giveAReason)),
});

export const moneyRequestSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  direction: z.enum(['deposit', 'debit_adjustment']),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  externalReference: z.nullable(z.string()),
  reason: z.string(),
  status: z.enum(['pending_approval', 'posted', 'rejected', 'cancelled']),
  maker: staffNameSchema,
  checker: z.nullable(staffNameSchema),
  /** While pending: the admins who may approve it (not the maker, the subject, or anyone the maker promoted). */
  eligibleCheckers: z.array(staffNameSchema),
  decisionReason: z.nullable(z.string()),
  createdAt: z.string(),
  decidedAt: z.nullable(z.string()),
});
export type MoneyRequest = z.infer<typeof moneyRequestSchema>;

export const moneyRequestListSchema = z.object({ items: z.array(moneyRequestSchema) });

export const decisionBodySchema = z.object({ reason: z.optional(reasonSchema) });
export const rejectBodySchema = z.object({ reason: reasonSchema });

export const transactionPageSchema = z.object({
  items: z.array(
    z.object({
      lineId: z.string(),
      entryId: z.string(),
      kind: z.string(),
      /** The ledger entry's own memo. */
      memo: z.string(),
      /** What the customer reads: a Quick Pay names the other customer, masked. */
      description: z.string(),
      amountMinor: minorUnitsSchema,
      currency: z.string(),
      createdAt: z.string(),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});
export type TransactionPage = z.infer<typeof transactionPageSchema>;
