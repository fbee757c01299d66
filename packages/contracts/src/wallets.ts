import { currencyCodeSchema } from './currencies.ts';
import { minorUnitsSchema } from './money.ts';
import { z } from './zod.ts';

/** The least level at which a customer opens a wallet in another currency (issue #33). */
export const walletOpeningLevelMin = 2;

/** `?walletId=`: one of the customer's wallets; without it, their main wallet. */
export const walletIdQuerySchema = z.object({ walletId: z.optional(z.uuid()) });

export const openWalletBodySchema = z.object({ currency: currencyCodeSchema });
export type OpenWalletBody = z.infer<typeof openWalletBodySchema>;

export const walletListItemSchema = z.object({
  id: z.string(),
  accountNumber: z.string(),
  iban: z.nullable(z.string()),
  currency: z.string(),
  isMain: z.boolean(),
  balanceMinor: minorUnitsSchema,
  heldMinor: minorUnitsSchema,
  availableMinor: minorUnitsSchema,
  /** The balance in the main wallet's currency at today's mid rate; null without a rate. */
  estimateInMainMinor: z.nullable(minorUnitsSchema),
});
export type WalletListItem = z.infer<typeof walletListItemSchema>;

export const walletListSchema = z.object({
  mainCurrency: z.string(),
  items: z.array(walletListItemSchema),
  /** The sum of the estimates: labelled an estimate; null when a rate is missing. */
  totalEstimateMinor: z.nullable(minorUnitsSchema),
  /** Currencies the operator offers that the customer holds no wallet in yet. */
  openableCurrencies: z.array(z.string()),
  /** Whether the customer's level allows opening another wallet. */
  canOpen: z.boolean(),
});
export type WalletList = z.infer<typeof walletListSchema>;

/** A customer's wallets as staff see them on the customer's page. */
export const staffWalletListSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      accountNumber: z.string(),
      currency: z.string(),
      isMain: z.boolean(),
      balanceMinor: minorUnitsSchema,
      availableMinor: minorUnitsSchema,
    }),
  ),
});
export type StaffWalletList = z.infer<typeof staffWalletListSchema>;
