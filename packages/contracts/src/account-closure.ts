import { minorUnitsSchema } from './money.ts';
import { currentPasswordSchema } from './profile.ts';
import { z } from './zod.ts';

/**
 * What keeps an account open (ADR 050), each with its way forward: repay the loan, cancel
 * the card, wait for the withdrawal, wait for the dispute or the staff posting, withdraw the
 * rest of the balance. A negative balance cannot occur in a wallet (the ledger's floor) but
 * is named in case an operator's data has one: it can only be settled with the institution.
 */
export const closureBlockerKinds = [
  'loan_outstanding',
  'card_active',
  'payout_pending',
  'dispute_open',
  'money_request_pending',
  'bulk_payment_paying',
  'money_held',
  'balance_positive',
  'balance_negative',
] as const;
export type ClosureBlockerKind = (typeof closureBlockerKinds)[number];

export const closureBlockerSchema = z.object({
  kind: z.enum(closureBlockerKinds),
  /** What is open and what to do, in the customer's words. */
  message: z.string(),
  /** Where the way forward is (`/loan`, `/cards`, …); null where it is waiting. */
  link: z.nullable(z.string()),
  linkLabel: z.nullable(z.string()),
});
export type ClosureBlocker = z.infer<typeof closureBlockerSchema>;

export const accountClosureSchema = z.object({
  isClosable: z.boolean(),
  /** The main wallet's balance (ADR 052: money goes in and out through it). */
  balance: z.object({ amountMinor: minorUnitsSchema, currency: z.string() }),
  /** The customer's other wallets, one per currency: each must be empty too. */
  otherBalances: z.array(z.object({ amountMinor: minorUnitsSchema, currency: z.string() })),
  /** Every reason the account cannot be closed now; empty when it can. */
  blockers: z.array(closureBlockerSchema),
  /** Active or paused scheduled payments, cancelled with the account (never paid after). */
  scheduledPaymentsToCancel: z.number().check(z.int()),
  /** Saved withdrawal payees the rest of a balance can go to. */
  withdrawalPayees: z.array(z.object({ id: z.string(), nickname: z.string() })),
});
export type AccountClosure = z.infer<typeof accountClosureSchema>;

export const closeAccountBodySchema = z.object({ currentPassword: currentPasswordSchema });
export type CloseAccountBody = z.infer<typeof closeAccountBodySchema>;

export const closedAccountSchema = z.object({
  closedAt: z.string(),
  cancelledScheduledPayments: z.number().check(z.int()),
});
export type ClosedAccount = z.infer<typeof closedAccountSchema>;
