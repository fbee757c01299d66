import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { emailSchema } from './auth.ts';
import { externalReferenceSchema } from './ledger.ts';
import { invalidPayoutAmountMessage, minorUnitsSchema } from './money.ts';
import { passkeyAssertionSchema } from './passkey-assertion.ts';
import { payingWalletIdSchema } from './paying-wallet.ts';
import { type CryptoCoin, cryptoCoins, payoutDestinationSchema } from './payout-destinations.ts';
import { stepUpCodeSchema } from './step-up.ts';
import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

// Kept in their own module so that pages which only show a destination (saved payees
// above Quick Pay and Pay Bills) do not load the request schemas and their IBAN checks.
export {
  type CryptoCoin,
  cryptoCoinLabels,
  cryptoCoins,
  describePayoutDestination,
  type PayoutDestination,
  type PayoutMethod,
  payoutDestinationSchema,
  payoutMethodLabels,
  payoutMethods,
} from './payout-destinations.ts';

/**
 * The form of an address of each coin: Bitcoin's base58 (1…, 3…) or bech32 (bc1…), and
 * Ethereum's 0x and 40 hex digits. The checksums inside them are checked by the server
 * (the library that knows them is too large, and not browser-ready, for the web app).
 */
const cryptoAddressForms: Record<CryptoCoin, RegExp> = {
  BTC: /^(?:[13][1-9A-HJ-NP-Za-km-z]{25,34}|bc1[02-9ac-hj-np-z]{8,87}|BC1[02-9AC-HJ-NP-Z]{8,87})$/,
  ETH: /^0x[0-9a-fA-F]{40}$/,
  USDT: /^0x[0-9a-fA-F]{40}$/,
};

export function invalidCryptoAddressMessage(coin: CryptoCoin): string {
  return `Enter a valid ${coin} address`;
}

/** "$" and a letter, then up to 19 letters, digits or underscores, as CashApp allows. */
const cashtagPattern = /^\$[A-Za-z][A-Za-z0-9_]{0,19}$/;
const bankAccountDigitsPattern = /^\d{6,34}$/;

const holderNameSchema = singleLineText({ max: 100 }).check(
  z.minLength(1, 'Enter the account holder name'),
);

/** A domestic account number (6 to 34 digits) or an IBAN, kept without spaces. */
const bankAccountNumberSchema = z
  .pipe(
    singleLineText({
      max: 50,
      tooLong: 'Enter the account number (digits) or a valid IBAN',
    }).check(z.minLength(1, 'Enter the account number or IBAN')),
    z.transform((text) => text.replace(/[\s-]/g, '').toUpperCase()),
  )
  .check(
    z.refine(
      (text) =>
        bankAccountDigitsPattern.test(text) || isValidIBAN(electronicFormatIBAN(text) ?? ''),
      'Enter the account number (digits) or a valid IBAN',
    ),
  );

const emailOrCashtagSchema = singleLineText({
  max: 254,
  tooLong: 'Enter an email address or a $cashtag',
}).check(
  z.minLength(1, 'Enter an email address or a $cashtag'),
  z.refine(
    (text) => cashtagPattern.test(text) || emailSchema.safeParse(text).success,
    'Enter an email address or a $cashtag',
  ),
);

const bankDestinationSchema = z.object({
  method: z.literal('bank'),
  holderName: holderNameSchema,
  bankName: singleLineText({ max: 100 }).check(z.minLength(1, 'Enter the bank name')),
  accountNumber: bankAccountNumberSchema,
});

const paypalDestinationSchema = z.object({
  method: z.literal('paypal'),
  email: emailSchema,
  holderName: holderNameSchema,
});

const cashappDestinationSchema = z.object({
  method: z.literal('cashapp'),
  emailOrCashtag: emailOrCashtagSchema,
  holderName: holderNameSchema,
});

const cryptoDestinationSchema = z
  .object({
    method: z.literal('crypto'),
    coin: z.enum(cryptoCoins, 'Choose a coin'),
    address: singleLineText({ max: 100, tooLong: 'Address too long' }).check(
      z.minLength(1, 'Enter the wallet address'),
    ),
  })
  .check(
    z.superRefine((destination, context) => {
      if (!cryptoAddressForms[destination.coin].test(destination.address)) {
        context.addIssue({
          code: 'custom',
          path: ['address'],
          message: invalidCryptoAddressMessage(destination.coin),
        });
      }
    }),
  );

/**
 * The typed amount: digits with an optional fraction, above zero. Its precision depends on
 * the wallet's currency, so `parseAmount` checks that once the currency is known.
 */
const payoutAmountSchema = singleLineText({ max: 40, tooLong: invalidPayoutAmountMessage }).check(
  z.regex(/^\d{1,16}(?:\.\d{1,4})?$/, invalidPayoutAmountMessage),
  z.refine((text) => /[1-9]/.test(text), invalidPayoutAmountMessage),
);

const payoutRequestFields = {
  amount: payoutAmountSchema,
  /** The wallet the money leaves from; its currency is the withdrawal's. */
  walletId: payingWalletIdSchema,
  /** Every payout needs one (PRODUCT.md); the server answers `step_up_required` without. */
  stepUpCode: z.optional(stepUpCodeSchema),
  /** Instead of the code: one of the customer's passkeys signed this payment (ADR 046). */
  stepUpPasskey: z.optional(passkeyAssertionSchema),
};

/** Where a new withdrawal goes, as typed and checked (a payout request less its amount and code). */
export const payoutDestinationBodySchema = z.discriminatedUnion('method', [
  bankDestinationSchema,
  paypalDestinationSchema,
  cashappDestinationSchema,
  cryptoDestinationSchema,
]);
export type PayoutDestinationBody = z.output<typeof payoutDestinationBodySchema>;

/**
 * A withdrawal request: the amount, the step-up code, and the destination's fields for
 * the chosen method. The withdraw form validates with this same schema.
 */
export const payoutBodySchema = z.discriminatedUnion('method', [
  z.safeExtend(bankDestinationSchema, payoutRequestFields),
  z.safeExtend(paypalDestinationSchema, payoutRequestFields),
  z.safeExtend(cashappDestinationSchema, payoutRequestFields),
  z.safeExtend(cryptoDestinationSchema, payoutRequestFields),
]);
export type PayoutBody = z.output<typeof payoutBodySchema>;

/** PRODUCT.md Data: a payout is pending until staff send it or reject it. */
export const payoutStatuses = ['pending', 'sent', 'rejected'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/** What the customer reads: a sent payout is completed for them (PRODUCT.md). */
export const customerPayoutStatusLabels: Record<PayoutStatus, string> = {
  pending: 'Pending',
  sent: 'Completed',
  rejected: 'Rejected',
};

export const payoutSchema = z.object({
  id: z.string(),
  amountMinor: minorUnitsSchema,
  feeMinor: minorUnitsSchema,
  currency: z.string(),
  destination: payoutDestinationSchema,
  status: z.enum(payoutStatuses),
  /** The sending bank's or network's reference, once sent. */
  externalReference: z.nullable(z.string()),
  /** Why it was rejected, or the note staff left when sending. */
  decisionReason: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  decidedAt: z.nullable(z.iso.datetime()),
});
export type Payout = z.infer<typeof payoutSchema>;

export const payoutListQuerySchema = z.object({
  cursor: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
});

export const payoutPageSchema = z.object({
  items: z.array(payoutSchema),
  nextCursor: z.nullable(z.string()),
});

/** What the withdraw form shows before anything is typed: what is available, and the fee. */
export const payoutTermsSchema = z.object({
  currency: z.string(),
  availableMinor: minorUnitsSchema,
  feeMinor: minorUnitsSchema,
});
export type PayoutTerms = z.infer<typeof payoutTermsSchema>;

/** A payout as staff see it: whose it is, and who decided it. */
export const staffPayoutSchema = z.extend(payoutSchema, {
  userId: z.string(),
  username: z.string(),
  decidedBy: z.nullable(z.object({ id: z.string(), username: z.string() })),
});
export type StaffPayout = z.infer<typeof staffPayoutSchema>;

export const staffPayoutListSchema = z.object({ items: z.array(staffPayoutSchema) });

/**
 * Marking a payout sent: the reference of the money that left (quoted in the entry's memo
 * after the destination, so it is bounded by `externalReferenceLengthMax`), and an
 * optional note.
 */
export const sendPayoutBodySchema = z.object({
  externalReference: externalReferenceSchema.check(z.minLength(1, 'Enter the external reference')),
  reason: z.optional(multiLineText({ max: 500 })),
});
