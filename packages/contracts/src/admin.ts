import { z } from 'zod';
import { roles } from './auth.ts';
import { accountLevelMax } from './limits.ts';

const reasonSchema = z
  .string()
  .trim()
  .min(1, 'Please give a reason')
  .max(500, 'Use at most 500 characters');

export const customerListQuerySchema = z.object({
  search: z.string().trim().max(100).optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const moneySchema = z.object({ amountMinor: z.string(), currency: z.string() });

export const customerListItemSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(roles),
  balance: moneySchema.nullable(),
  level: z.number().int(),
  isFrozen: z.boolean(),
});

export const customerListSchema = z.object({
  totalUsers: z.number().int(),
  items: z.array(customerListItemSchema),
  nextCursor: z.string().nullable(),
});
export type CustomerList = z.infer<typeof customerListSchema>;

export const customerDetailSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isEmailVerified: z.boolean(),
  phone: z.string().nullable(),
  country: z.string(),
  role: z.enum(roles),
  level: z.number().int(),
  isFrozen: z.boolean(),
  frozenReason: z.string().nullable(),
  hasTotp: z.boolean(),
  createdAt: z.string(),
  wallet: z
    .object({
      accountNumber: z.string(),
      currency: z.string(),
      balanceMinor: z.string(),
      heldMinor: z.string(),
      availableMinor: z.string(),
    })
    .nullable(),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const freezeBodySchema = z.object({ reason: reasonSchema });

export const setLevelBodySchema = z.object({
  level: z.coerce
    .number({ message: 'Please enter a valid account level' })
    .int('Please enter a valid account level')
    .min(1, 'Please enter a valid account level')
    .max(accountLevelMax, 'Please enter a valid account level'),
  reason: reasonSchema,
});

export const setRoleBodySchema = z.object({ role: z.enum(roles), reason: reasonSchema });

/** Amount as typed ("1250.00"); parsed in the wallet's currency on the server. */
export const moneyRequestBodySchema = z.object({
  amount: z
    .string()
    .trim()
    .min(1, 'Please enter a valid amount')
    .max(40, 'Please enter a valid amount'),
  externalReference: z.string().trim().max(200).optional(),
  reason: reasonSchema,
});

export const moneyRequestSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  direction: z.enum(['deposit', 'debit_adjustment']),
  amountMinor: z.string(),
  currency: z.string(),
  externalReference: z.string().nullable(),
  reason: z.string(),
  status: z.enum(['pending_approval', 'posted', 'rejected']),
  maker: z.object({ id: z.string(), username: z.string() }),
  checker: z.object({ id: z.string(), username: z.string() }).nullable(),
  decisionReason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type MoneyRequest = z.infer<typeof moneyRequestSchema>;

export const moneyRequestListSchema = z.object({ items: z.array(moneyRequestSchema) });

export const decisionBodySchema = z.object({ reason: reasonSchema.optional() });
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
      amountMinor: z.string(),
      currency: z.string(),
      createdAt: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export type TransactionPage = z.infer<typeof transactionPageSchema>;
