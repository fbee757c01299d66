import { accountNumberSchema } from './ledger.ts';
import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/**
 * Who to pay by Quick Pay: a 10-digit account number or an email address. Its own file so
 * that the step-up challenge (which carries the intended payment) and Quick Pay share it.
 */
export const recipientSchema = singleLineText({ max: 254 }).check(
  z.minLength(1, 'Enter an account number or email'),
  z.refine(
    (value) => accountNumberSchema.safeParse(value).success || z.email().safeParse(value).success,
    'Enter a 10-digit account number or an email address',
  ),
);

/**
 * The one answer to every refused recipient look-up, whatever the reason (nobody has that
 * number or email, another currency, a staff or closed account): it states the rule and
 * reveals nothing about who banks here (SECURITY.md, "Recipient look-ups").
 */
export const recipientRefusedMessage =
  "We can't send to this recipient. Check the account number or email; Quick Pay works only between Coffer wallets in the same currency.";
