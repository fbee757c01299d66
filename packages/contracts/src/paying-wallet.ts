import { z } from './zod.ts';

/**
 * The wallet a payment leaves from (Quick Pay, bills; issue #33): one of the customer's own
 * (another's or an unknown id is not found); without it, their main wallet. Its currency is
 * the payment's. Its own file so that every money form's contract can carry it lightly.
 */
export const payingWalletIdSchema = z.optional(z.uuid());
