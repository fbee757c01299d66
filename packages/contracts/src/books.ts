import { currencyCodeSchema } from './currencies.ts';
import { type AccountKind, accountKinds } from './ledger.ts';
import { minorUnitsSchema } from './money.ts';
import { statementDateSchema } from './statements.ts';
import { z } from './zod.ts';

/** One line of the chart of accounts: the general-ledger code and name of an account kind. */
export type GlAccount = { code: string; name: string };
export type GlMap = Readonly<Record<AccountKind, GlAccount>>;

/**
 * The default chart of accounts (docs/OPERATIONS.md, "Books"). Holds are no account of
 * their own: held money stays in the customer's wallet, so it stays in customer deposits.
 */
export const defaultGlMap: GlMap = {
  settlement: { code: '1010', name: 'Settlement bank account' },
  payout_clearing: { code: '1020', name: 'Payouts in transit' },
  loan_receivable: { code: '1200', name: 'Loans receivable' },
  customer: { code: '2100', name: 'Customer deposits' },
  bill_clearing: { code: '2300', name: 'Bill payments clearing' },
  card_clearing: { code: '2310', name: 'Card settlements clearing' },
  sandbox_funding: { code: '3900', name: 'Test money (sandbox only)' },
  fees: { code: '4100', name: 'Fee income' },
  interest_income: { code: '4200', name: 'Interest income' },
  fx_position: { code: '1500', name: 'Foreign currency position' },
  fx_income: { code: '4300', name: 'Exchange income' },
  fx_rounding: { code: '4310', name: 'Exchange rounding' },
};

export class GlMapError extends Error {
  override name = 'GlMapError';
}

const glCodePattern = /^[A-Za-z0-9][A-Za-z0-9.-]{0,19}$/;
const glNameLengthMax = 100;

/**
 * `COFFER_GL_MAP` over the default: JSON of account kinds, each `{"code": "…", "name": "…"}`
 * (the name may be left out to keep the default's). A bad key or value throws naming it.
 */
export function parseGlMap(json: string | undefined): GlMap {
  if (json === undefined) return defaultGlMap;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new GlMapError('must be a JSON object like {"customer":{"code":"2100"}}');
  }
  const map: Record<string, GlAccount> = { ...defaultGlMap };
  for (const [key, value] of Object.entries(parsed)) {
    if (!(accountKinds as readonly string[]).includes(key)) {
      throw new GlMapError(`${key}: not an account kind (one of ${accountKinds.join(', ')})`);
    }
    const fields = z
      .strictObject({ code: z.string(), name: z.optional(z.string()) })
      .safeParse(value);
    if (!fields.success) {
      throw new GlMapError(`${key}: must be an object like {"code":"2100","name":"Deposits"}`);
    }
    const { code, name = map[key]?.name ?? '' } = fields.data;
    if (!glCodePattern.test(code)) {
      throw new GlMapError(`${key}.code: 1 to 20 letters, digits, dots or dashes`);
    }
    if (name.trim() === '' || name.length > glNameLengthMax) {
      throw new GlMapError(`${key}.name: 1 to ${glNameLengthMax} characters`);
    }
    map[key] = { code, name };
  }
  return map as GlMap;
}

/**
 * The first day the books can show, far from the calendar's edges (PostgreSQL has no year
 * 0); no Coffer ledger is older.
 */
export const booksFirstDay = '2000-01-01';

/**
 * The last day the books can name: a day's end in year 10000 is beyond what PostgreSQL's
 * timestamps and JavaScript's ISO strings hold (a 500 once), and no real period is that far.
 */
export const booksLastDay = '2999-12-31';

export const booksDateSchema = statementDateSchema.check(
  z.refine((date) => date >= booksFirstDay, `The books start on ${booksFirstDay}`),
  z.refine((date) => date <= booksLastDay, `The books end on ${booksLastDay}`),
);

export const trialBalanceQuerySchema = z.object({
  date: booksDateSchema,
  currency: z.optional(currencyCodeSchema),
  format: z._default(z.enum(['json', 'csv']), 'json'),
});

/** The most days one general-ledger export covers. */
export const journalExportDaysMax = 366;

export const journalExportQuerySchema = z.object({ from: booksDateSchema, to: booksDateSchema });

const trialBalanceRowSchema = z.object({
  glCode: z.string(),
  glName: z.string(),
  openingMinor: minorUnitsSchema,
  debitsMinor: minorUnitsSchema,
  creditsMinor: minorUnitsSchema,
  closingMinor: minorUnitsSchema,
});
export type TrialBalanceRow = z.infer<typeof trialBalanceRowSchema>;

/**
 * One day's trial balance: per currency, the day's debits and credits per GL code, whose
 * totals must be equal. A closed day reads its snapshot; a day not closed yet (today) is
 * computed live and marked provisional.
 */
export const trialBalanceSchema = z.object({
  date: z.string(),
  timeZone: z.string(),
  status: z.enum(['closed', 'provisional']),
  closedAt: z.nullable(z.iso.datetime()),
  currencies: z.array(
    z.object({
      currency: z.string(),
      rows: z.array(trialBalanceRowSchema),
      totalDebitsMinor: minorUnitsSchema,
      totalCreditsMinor: minorUnitsSchema,
      isBalanced: z.boolean(),
    }),
  ),
});
export type TrialBalance = z.infer<typeof trialBalanceSchema>;

/** The closed days whose books did not balance or whose ledger check failed. */
export const booksAlertsSchema = z.object({
  items: z.array(z.object({ date: z.string(), problems: z.array(z.string()) })),
});
export type BooksAlerts = z.infer<typeof booksAlertsSchema>;
