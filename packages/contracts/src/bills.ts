import { minorUnitsSchema } from './money.ts';
import { payingWalletIdSchema } from './paying-wallet.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/** PRODUCT.md section 5: the billers a customer can pay, in the order the form lists them. */
export const billCategories = ['electricity', 'water', 'internet', 'phone', 'rent'] as const;
export type BillCategory = (typeof billCategories)[number];

export const billCategoryLabels: Record<BillCategory, string> = {
  electricity: 'Electricity',
  water: 'Water',
  internet: 'Internet',
  phone: 'Phone',
  rent: 'Rent',
};

/** PRODUCT.md section 4: the message when the bill or the amount is missing. */
export const selectBillMessage = 'Please select a bill and enter amount';

export const billerReferenceLengthMax = 40;

/** The customer number printed on the bill: letters, digits and dashes. */
export const billerReferenceSchema = singleLineText({
  max: billerReferenceLengthMax,
  missing: 'Enter the customer number from your bill',
}).check(
  z.minLength(1, 'Enter the customer number from your bill'),
  z.regex(/^[A-Za-z0-9-]+$/, 'Use only letters, digits and dashes'),
);

/**
 * The Pay Bill form. The amount is the typed decimal text; the server parses it in the
 * wallet's currency (`parseAmount`), since only it knows that currency for sure.
 */
export const billPaymentBodySchema = z.object({
  category: z.enum(billCategories, { error: selectBillMessage }),
  billerReference: billerReferenceSchema,
  amount: singleLineText({ max: 40, tooLong: selectBillMessage, missing: selectBillMessage }).check(
    z.minLength(1, selectBillMessage),
  ),
  walletId: payingWalletIdSchema,
});
export type BillPaymentBody = z.infer<typeof billPaymentBodySchema>;

export const billPaymentSchema = z.object({
  id: z.string(),
  category: z.enum(billCategories),
  billerReference: z.string(),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  /** A bill payment settles at once: it is completed the moment it exists. */
  status: z.literal('completed'),
  createdAt: z.iso.datetime(),
});
export type BillPayment = z.infer<typeof billPaymentSchema>;

export const billPaymentListQuerySchema = z.object({
  cursor: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
});

export const billPaymentListSchema = z.object({
  items: z.array(billPaymentSchema),
  nextCursor: z.nullable(z.string()),
});
export type BillPaymentList = z.infer<typeof billPaymentListSchema>;
