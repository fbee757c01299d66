import { amountMinorMax, minorUnitsSchema } from './money.ts';
import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

/**
 * A card's life: requested (fee held) → issued (fee captured) ⇄ frozen, or requested →
 * declined (fee released). `closed` is the issuer's end of a card.
 */
export const cardStatuses = ['requested', 'issued', 'frozen', 'declined', 'closed'] as const;
export type CardStatus = (typeof cardStatuses)[number];

/** A card that counts as the customer's one card: nobody holds two of these at once. */
export const openCardStatuses: readonly CardStatus[] = ['requested', 'issued', 'frozen'];

export const cardSchema = z.object({
  id: z.string(),
  status: z.enum(cardStatuses),
  /** Only these four digits of the number ever reach Coffer; null until issued. */
  lastFour: z.nullable(z.string()),
  /** "MM/YY", null until issued. */
  expiry: z.nullable(z.string()),
  holderName: z.string(),
  currency: z.string(),
  feeMinor: minorUnitsSchema,
  weeklyLimitMinor: minorUnitsSchema,
  /** Why staff declined the request, or froze the card (staff freezes carry a reason). */
  reason: z.nullable(z.string()),
  requestedAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
});
export type Card = z.infer<typeof cardSchema>;

/** Spending against the weekly limit; weeks start on Monday 00:00 UTC. */
export const cardSpendingSchema = z.object({
  spentThisWeekMinor: minorUnitsSchema,
  weeklyLimitMinor: minorUnitsSchema,
  resetsAt: z.iso.datetime(),
});
export type CardSpending = z.infer<typeof cardSpendingSchema>;

/** The account level a card needs (PRODUCT.md: level 2, as withdrawals). */
export const cardLevelMin = 2;

/** GET /cards: the terms a request would get, and the customer's current card, if any. */
export const cardOverviewSchema = z.object({
  /** The customer's account level: below `cardLevelMin` the page says so instead of offering a card. */
  level: z.number().check(z.int()),
  terms: z.object({
    currency: z.string(),
    /** The creation fee from the operator's fee schedule; zero when none is configured. */
    creationFeeMinor: minorUnitsSchema,
    weeklyLimitMinor: minorUnitsSchema,
    availableMinor: minorUnitsSchema,
  }),
  card: z.nullable(cardSchema),
  spending: z.nullable(cardSpendingSchema),
});
export type CardOverview = z.infer<typeof cardOverviewSchema>;

/**
 * The fee the customer saw and confirmed, in minor units as the terms gave it; a different
 * fee now is refused, not charged. Text rather than a codec: request bodies stay JSON.
 */
export const requestCardBodySchema = z.object({
  confirmedFeeMinor: z.string().check(z.regex(/^\d{1,19}$/, 'Expected an amount in minor units')),
});

/** Why an authorization was declined: the codes the issuing endpoint answers with. */
export const declineReasons = [
  'unknown_card',
  'card_not_active',
  'card_frozen',
  'account_frozen',
  'currency_mismatch',
  'weekly_limit_exceeded',
  'insufficient_funds',
] as const;
export type DeclineReason = (typeof declineReasons)[number];

/** approved: funds held; settled: captured as a card purchase; reversed/expired: released. */
export const authorizationStatuses = [
  'approved',
  'declined',
  'settled',
  'reversed',
  'expired',
] as const;
export type AuthorizationStatus = (typeof authorizationStatuses)[number];

export const merchantNameLengthMax = 100;
const merchantSchema = singleLineText({ max: merchantNameLengthMax }).check(
  z.minLength(1, 'Enter the merchant name'),
);

/** One purchase attempt on the card, as its activity list shows it. */
export const cardAuthorizationSchema = z.object({
  id: z.string(),
  merchant: z.string(),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  status: z.enum(authorizationStatuses),
  declineReason: z.nullable(z.enum(declineReasons)),
  createdAt: z.iso.datetime(),
});
export type CardAuthorization = z.infer<typeof cardAuthorizationSchema>;

export const cardAuthorizationListSchema = z.object({
  items: z.array(cardAuthorizationSchema),
});

/** Sandbox "Simulate purchase": a merchant and an amount as the customer types it. */
export const simulatePurchaseBodySchema = z.object({
  merchant: merchantSchema,
  amount: z
    .string()
    .check(z.trim(), z.minLength(1, 'Invalid amount'), z.maxLength(32, 'Invalid amount')),
});
export type SimulatePurchaseBody = z.infer<typeof simulatePurchaseBodySchema>;

/** A staff freeze, unfreeze or decline says why; the customer sees it. */
export const cardReasonBodySchema = z.object({
  reason: multiLineText({ max: 500 }).check(z.minLength(1, 'Please give a reason')),
});
export const issueCardBodySchema = z.object({ reason: z.optional(multiLineText({ max: 500 })) });

/** A card as staff see it: whose it is. */
export const staffCardSchema = z.extend(cardSchema, { userId: z.string(), username: z.string() });
export type StaffCard = z.infer<typeof staffCardSchema>;
export const staffCardListSchema = z.object({ items: z.array(staffCardSchema) });

// The issuing processor's side: what it sends to /issuing/authorizations and /settlements.

const processorIdSchema = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(100),
    z.regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only'),
  );

/** An amount the processor sends: a positive count of minor units, as a string. */
const processorAmountSchema = z
  .pipe(
    z.string().check(z.regex(/^[1-9]\d{0,18}$/, 'a positive integer of minor units')),
    z.transform((text) => BigInt(text)),
  )
  .check(z.refine((amountMinor) => amountMinor <= amountMinorMax, 'amount too large'));

export const issuingAuthorizationBodySchema = z.object({
  /**
   * The processor's id of the authorization: a retry with the same id and body gets the
   * same answer; the same id with another card, amount, currency or merchant is refused
   * (409 `processor_id_reused`).
   */
  id: processorIdSchema,
  cardToken: z.string().check(z.minLength(1), z.maxLength(100)),
  amountMinor: processorAmountSchema,
  currency: z.string().check(z.regex(/^[A-Z]{3}$/)),
  merchant: merchantSchema,
});
export type IssuingAuthorizationBody = z.input<typeof issuingAuthorizationBodySchema>;

export const issuingAuthorizationAnswerSchema = z.object({
  id: z.string(),
  approved: z.boolean(),
  declineReason: z.nullable(z.enum(declineReasons)),
});
export type IssuingAuthorizationAnswer = z.infer<typeof issuingAuthorizationAnswerSchema>;

/** capture: the purchase settled; reversal (merchant cancelled) and expiry release the hold. */
export const settlementTypes = ['capture', 'reversal', 'expiry'] as const;
export type SettlementType = (typeof settlementTypes)[number];

export const issuingSettlementBodySchema = z.object({
  /**
   * The processor's id of the settlement: a retry with the same id and body gets the same
   * answer; the same id for another authorization or type is refused (409).
   */
  id: processorIdSchema,
  authorizationId: processorIdSchema,
  type: z.enum(settlementTypes),
});
export type IssuingSettlementBody = z.infer<typeof issuingSettlementBodySchema>;

export const issuingSettlementAnswerSchema = z.object({
  id: z.string(),
  authorizationId: z.string(),
  status: z.enum(authorizationStatuses),
});

/** The headers of a signed issuing request (docs/decisions/016). */
export const issuingTimestampHeader = 'coffer-issuing-timestamp';
export const issuingSignatureHeader = 'coffer-issuing-signature';
/** A signed request older (or newer) than this is refused as stale. */
export const issuingSignatureToleranceMs = 5 * 60 * 1000;

/** The simulated purchase's outcome, as the card page shows it. */
export const simulatedPurchaseSchema = z.object({ authorization: cardAuthorizationSchema });
