import { reasonSchema } from './admin.ts';
import { type CurrencyCode, isCurrencyCode } from './currencies.ts';
import { markupBpMax, ratesSchema } from './exchange.ts';
import { z } from './zod.ts';

/**
 * Markups set by staff over the operator's configured ones (issue #33 item 5, ADR 051's
 * amendment). A markup belongs to a pair in both directions; the pair is written with
 * its two codes in alphabetical order ("EUR/JPY"), in a path with a dash ("EUR-JPY").
 */

const pairInPathPattern = /^[A-Z]{3}-[A-Z]{3}$/;
const notAPair = 'Write the pair as two currency codes, like EUR-JPY';

/** The two codes of a pair in alphabetical order: the key of its markup either way. */
export function canonicalPair(first: CurrencyCode, second: CurrencyCode): string {
  return first < second ? `${first}/${second}` : `${second}/${first}`;
}

/** `/admin/exchange/markups/:pair`: "EUR-JPY" or "JPY-EUR", the same pair's markup. */
export const markupPairParamsSchema = z.object({
  pair: z.pipe(
    z.string().check(
      z.regex(pairInPathPattern, notAPair),
      z.refine((text) => text.split('-').every(isCurrencyCode), notAPair),
    ),
    z.transform((text) => {
      const [first, second] = text.split('-') as [CurrencyCode, CurrencyCode];
      return { first, second };
    }),
  ),
});

const markupMessage = `A markup is whole basis points from 0 to ${markupBpMax}`;

/**
 * PUT …/markups/:pair: the markup in basis points (100 bp is 1 %) and why. The contract's
 * bound is the arithmetic's (`markupBpMax`); the operator's own maximum, lower, is the
 * server's check (COFFER_FX_MARKUP_MAX), shown to staff with the rates.
 */
export const markupChangeBodySchema = z.object({
  markupBp: z
    .number(markupMessage)
    .check(z.int(markupMessage), z.gte(0, markupMessage), z.lte(markupBpMax, markupMessage)),
  reason: reasonSchema,
});
export type MarkupChangeBody = z.infer<typeof markupChangeBodySchema>;

/** DELETE …/markups/:pair: back to the configured default, with why. */
export const markupResetBodySchema = z.object({ reason: reasonSchema });
export type MarkupResetBody = z.infer<typeof markupResetBodySchema>;

/** One pair's markup on the staff's rates page, and where it comes from. */
export const pairMarkupSchema = z.object({
  /** "EUR/JPY": the codes in alphabetical order; the markup applies both ways. */
  pair: z.string(),
  markupBp: z.number(),
  /** The configured value when staff never set one. */
  configuredMarkupBp: z.number(),
  source: z.enum(['configured', 'staff']),
  /** Who set it and when; null for a configured one. */
  setBy: z.nullable(z.string()),
  setAt: z.nullable(z.string()),
  reason: z.nullable(z.string()),
});
export type PairMarkup = z.infer<typeof pairMarkupSchema>;

/** The staff's rates page: the customers' rates, every pair's markup, and the maximum. */
export const staffRatesSchema = z.extend(ratesSchema, {
  markups: z.array(pairMarkupSchema),
  /** The most staff may set (COFFER_FX_MARKUP_MAX, basis points). */
  markupBpMaxForStaff: z.number(),
});
export type StaffRates = z.infer<typeof staffRatesSchema>;
