import { type CurrencyCode, isCurrencyCode, toCurrencyCode } from './currencies.ts';
import { annuitySchedule } from './loan-schedule.ts';
import { MoneyParseError, minorUnitsSchema, parseAmount } from './money.ts';
import { passkeyAssertionSchema } from './passkey-assertion.ts';
import { multiLineText, singleLineText } from './text.ts';
import { z } from './zod.ts';

/** PRODUCT.md section 5: loans start at account level 2. */
export const loanLevelMin = 2;

/** PRODUCT.md: repayment months run from 1 to 60, and the operator's terms never allow more. */
export const loanMonthsMax = 60;

export const loanMessages = {
  personalDetails: 'Please fill all personal details',
  submitted: 'Loan application submitted for admin review.',
  failed: 'Error submitting application',
  aboveEligibility: 'Requested amount is above your approved eligibility',
  declined: 'Loan request declined',
  declineFailed: 'Failed to decline loan',
  restrictedTitle: 'Loan Access Restricted',
  restrictedBody: 'Reach level 2 to access loan services',
  notAssessed: 'Not yet assessed',
  noHistory: 'No loan history available',
  invalidSalary: 'Enter your monthly salary as a number above zero',
  invalidAmount: 'Enter the amount as a number above zero',
  invalidMonths: 'Enter a whole number of months from 1 to 60',
  askForAssessment: 'Ask for an assessment',
  assessmentRequested: 'Assessment requested',
  assessmentRequestedBody:
    'Staff will assess what you may borrow. We will notify you when it is decided.',
} as const;

/** One currency's loan terms as the operator sets them (`COFFER_LOAN_TERMS`). */
export type LoanTerms = {
  currency: CurrencyCode;
  /** The annual interest rate in basis points: 1,200 is 12.00 %. */
  annualRateBp: number;
  amountMinMinor: bigint;
  amountMaxMinor: bigint;
  monthsMax: number;
};

const termsEntrySchema = z.strictObject({
  annualRateBp: z.number().check(z.int(), z.gte(0), z.lte(10_000)),
  amountMin: z.string(),
  amountMax: z.string(),
  monthsMax: z.number().check(z.int(), z.gte(1), z.lte(loanMonthsMax)),
});

/** The sandbox's terms when the operator sets none: similar value in each currency. */
export const defaultLoanTermsJson = JSON.stringify({
  USD: { annualRateBp: 1200, amountMin: '100.00', amountMax: '50000.00', monthsMax: 60 },
  EUR: { annualRateBp: 1100, amountMin: '100.00', amountMax: '50000.00', monthsMax: 60 },
  JPY: { annualRateBp: 800, amountMin: '15000', amountMax: '7500000', monthsMax: 60 },
});

export class LoanTermsError extends Error {
  override name = 'LoanTermsError';
}

/** Parses `COFFER_LOAN_TERMS`; any mistake stops start-up with what is wrong. */
export function parseLoanTerms(json: string): Map<string, LoanTerms> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new LoanTermsError('is not valid JSON');
  }
  const table = z.record(z.string(), termsEntrySchema).safeParse(parsed);
  if (!table.success) throw new LoanTermsError(z.prettifyError(table.error));
  const terms = new Map<string, LoanTerms>();
  for (const [code, entry] of Object.entries(table.data)) {
    if (!isCurrencyCode(code)) throw new LoanTermsError(`${code} is not an ISO 4217 currency`);
    const currency = toCurrencyCode(code);
    let amountMinMinor: bigint;
    let amountMaxMinor: bigint;
    try {
      amountMinMinor = parseAmount(entry.amountMin, currency);
      amountMaxMinor = parseAmount(entry.amountMax, currency);
    } catch (error) {
      if (error instanceof MoneyParseError) throw new LoanTermsError(`${code}: ${error.message}`);
      throw error;
    }
    if (amountMinMinor <= 0n || amountMaxMinor < amountMinMinor) {
      throw new LoanTermsError(`${code}: amountMin must be above zero and at most amountMax`);
    }
    terms.set(code, {
      currency,
      annualRateBp: entry.annualRateBp,
      amountMinMinor,
      amountMaxMinor,
      monthsMax: entry.monthsMax,
    });
  }
  return terms;
}

const personalDetail = (max: number) =>
  singleLineText({ max, missing: loanMessages.personalDetails }).check(
    z.minLength(1, loanMessages.personalDetails),
  );

/** Months as typed or sent: a whole number from 1 to 60 ("2.5" and "61" are refused). */
export const loanMonthsSchema = z.coerce
  .number({ error: loanMessages.invalidMonths })
  .check(
    z.int(loanMessages.invalidMonths),
    z.gte(1, loanMessages.invalidMonths),
    z.lte(loanMonthsMax, loanMessages.invalidMonths),
  );

/** PRODUCT.md's application form; amounts as typed, parsed in the wallet's currency. */
export const loanApplicationBodySchema = z.object({
  fullName: personalDetail(120),
  phone: personalDetail(40),
  address: personalDetail(300),
  monthlySalary: singleLineText({ max: 40 }).check(z.minLength(1, loanMessages.invalidSalary)),
  amount: singleLineText({ max: 40 }).check(z.minLength(1, loanMessages.invalidAmount)),
  months: loanMonthsSchema,
});
export type LoanApplicationBody = z.infer<typeof loanApplicationBodySchema>;

export const loanStatuses = ['pending', 'approved', 'declined', 'disbursed', 'repaid'] as const;
export type LoanStatus = (typeof loanStatuses)[number];

export const loanTermsSchema = z.object({
  currency: z.string(),
  annualRateBp: z.number().check(z.int()),
  amountMinMinor: minorUnitsSchema,
  amountMaxMinor: minorUnitsSchema,
  monthsMax: z.number().check(z.int()),
});

export const instalmentSchema = z.object({
  number: z.number().check(z.int()),
  dueOn: z.string(),
  principalMinor: minorUnitsSchema,
  interestMinor: minorUnitsSchema,
  paidMinor: minorUnitsSchema,
  status: z.enum(['paid', 'due', 'overdue', 'upcoming']),
});
export type Instalment = z.infer<typeof instalmentSchema>;

export const loanRepaymentSchema = z.object({
  id: z.string(),
  amountMinor: minorUnitsSchema,
  principalMinor: minorUnitsSchema,
  interestMinor: minorUnitsSchema,
  isAutomatic: z.boolean(),
  createdAt: z.string(),
});

export const loanSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  currency: z.string(),
  amountMinor: minorUnitsSchema,
  monthlySalaryMinor: minorUnitsSchema,
  months: z.number().check(z.int()),
  annualRateBp: z.number().check(z.int()),
  fullName: z.string(),
  phone: z.string(),
  address: z.string(),
  status: z.enum(loanStatuses),
  decisionReason: z.nullable(z.string()),
  decidedAt: z.nullable(z.string()),
  createdAt: z.string(),
  disbursedAt: z.nullable(z.string()),
  /** A disbursement above the approval threshold waiting for a second admin. */
  disbursementRequestedBy: z.nullable(z.object({ id: z.string(), username: z.string() })),
  instalmentMinor: z.nullable(minorUnitsSchema),
  outstandingPrincipalMinor: minorUnitsSchema,
  /** What pays the loan off today: principal plus the current period's interest so far. */
  payoffMinor: minorUnitsSchema,
  /** Due and overdue instalments not yet paid, today. */
  dueNowMinor: minorUnitsSchema,
  isOverdue: z.boolean(),
  /** Due instalments are collected from the wallet on their due date while this is on. */
  isAutoRepayOn: z.boolean(),
  instalments: z.array(instalmentSchema),
  repayments: z.array(loanRepaymentSchema),
});
export type Loan = z.infer<typeof loanSchema>;

/**
 * What the application form starts from: what the customer already gave (profile,
 * verification, their last application). Empty strings where nothing is known.
 */
export const applicantDetailsSchema = z.object({
  fullName: z.string(),
  phone: z.string(),
  address: z.string(),
});
export type ApplicantDetails = z.infer<typeof applicantDetailsSchema>;

export const loanOverviewSchema = z.object({
  level: z.number().check(z.int()),
  currency: z.string(),
  terms: z.nullable(loanTermsSchema),
  eligibility: z.nullable(
    z.object({ amountMinor: minorUnitsSchema, reason: z.string(), setAt: z.string() }),
  ),
  /** When the customer asked for an assessment that staff have not made yet. */
  assessmentRequestedAt: z.nullable(z.string()),
  /** Staff's reason, when they declined the customer's last assessment request. */
  assessmentDeclinedReason: z.nullable(z.string()),
  applicantDetails: applicantDetailsSchema,
  loanBalanceMinor: minorUnitsSchema,
  loans: z.array(loanSchema),
});
export type LoanOverview = z.infer<typeof loanOverviewSchema>;

export const loanListSchema = z.object({ items: z.array(loanSchema) });

/** A customer waiting for staff to set their eligibility, in the loans queue. */
export const assessmentRequestSchema = z.object({
  userId: z.string(),
  username: z.string(),
  currency: z.string(),
  requestedAt: z.string(),
  /** The eligibility they have now, when they ask for it to be looked at again. */
  eligibility: z.nullable(z.object({ amountMinor: minorUnitsSchema, setAt: z.string() })),
});
export type AssessmentRequest = z.infer<typeof assessmentRequestSchema>;
export const assessmentRequestListSchema = z.object({ items: z.array(assessmentRequestSchema) });

export const repayBodySchema = z.object({
  amount: singleLineText({ max: 40 }).check(z.minLength(1, 'Invalid amount')),
  stepUpCode: z.optional(z.string()),
  /** Instead of the code: one of the customer's passkeys signed this payment (ADR 046). */
  stepUpPasskey: z.optional(passkeyAssertionSchema),
});

export const autoRepayBodySchema = z.object({ isAutoRepayOn: z.boolean() });

const staffReason = multiLineText({ max: 500 }).check(z.minLength(1, 'Please give a reason'));

export const eligibilityBodySchema = z.object({
  amount: singleLineText({ max: 40 }).check(z.minLength(1, 'Please enter a valid amount')),
  /** The customer reads it on their loan page and in the notification. */
  reason: staffReason,
  /** For staff only (what the customer said, what was checked): kept in the audit log. */
  staffNote: z.optional(multiLineText({ max: 500 })),
});
export type EligibilityBody = z.infer<typeof eligibilityBodySchema>;

export const loanDecisionBodySchema = z.object({ reason: staffReason });

/** What the customer sees before submitting, from the same function the server uses. */
export function costDisclosure(
  amountMinor: bigint,
  months: number,
  terms: Pick<LoanTerms, 'annualRateBp'>,
) {
  const schedule = annuitySchedule(amountMinor, terms.annualRateBp, months);
  return {
    instalmentMinor: schedule.instalmentMinor,
    instalmentCount: schedule.lines.length,
    lastInstalmentMinor:
      (schedule.lines.at(-1)?.principalMinor ?? 0n) + (schedule.lines.at(-1)?.interestMinor ?? 0n),
    totalInterestMinor: schedule.totalInterestMinor,
    totalRepayableMinor: schedule.totalRepayableMinor,
    annualRateBp: terms.annualRateBp,
  };
}

/** "12.00 %" from basis points, with no float. */
export function formatRateBp(annualRateBp: number): string {
  const whole = Math.trunc(annualRateBp / 100);
  const fraction = String(annualRateBp % 100).padStart(2, '0');
  return `${whole}.${fraction} %`;
}
