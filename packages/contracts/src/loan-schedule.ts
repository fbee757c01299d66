/**
 * The arithmetic of an annuity loan (Apache Fineract's "equal instalments, declining
 * balance"), in integer minor units with no floats anywhere: the web form's cost
 * disclosure and the server's schedule are both this code.
 *
 * - The monthly rate is the annual rate / 12, in basis points: r = bp / 120,000.
 * - The instalment A = P·r / (1 − (1 + r)^−n), computed as one exact fraction of bigints
 *   and rounded half-up to the minor unit once.
 * - Each period's interest is the outstanding principal × r, rounded half-up; its
 *   principal part is A minus that interest. The last instalment takes whatever principal
 *   is left (the rounding remainder), so the principal parts sum exactly to the principal.
 */

/** Basis points per whole (100 % = 10,000 bp); twelve periods a year. */
const basisPointsPerUnit = 10_000n;
const periodsPerYear = 12n;
const periodRateDenominator = basisPointsPerUnit * periodsPerYear;
/** Actual/365: a day's interest is a 365th of a year's. */
const daysPerYear = 365n;

export type ScheduleLine = { number: number; principalMinor: bigint; interestMinor: bigint };

export type Schedule = {
  /** The equal instalment; the last one may differ by the rounding remainder. */
  instalmentMinor: bigint;
  lines: ScheduleLine[];
  totalInterestMinor: bigint;
  totalRepayableMinor: bigint;
};

/** The smaller of two amounts (Math.min takes no bigints). */
export function smallerMinor(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** numerator / denominator rounded half-up; both non-negative, denominator positive. */
export function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** One period's interest on `outstandingMinor` at the annual rate. */
export function periodInterestMinor(outstandingMinor: bigint, annualRateBp: number): bigint {
  return divideRoundingHalfUp(outstandingMinor * BigInt(annualRateBp), periodRateDenominator);
}

/** Interest on `outstandingMinor` for `days` days at the annual rate, actual/365. */
export function accruedInterestMinor(
  outstandingMinor: bigint,
  annualRateBp: number,
  days: number,
): bigint {
  return divideRoundingHalfUp(
    outstandingMinor * BigInt(annualRateBp) * BigInt(Math.max(0, days)),
    basisPointsPerUnit * daysPerYear,
  );
}

/** A = P·r·(1+r)^n / ((1+r)^n − 1), with r = bp/120,000, as one fraction, rounded once. */
export function annuityInstalmentMinor(
  principalMinor: bigint,
  annualRateBp: number,
  months: number,
): bigint {
  const n = BigInt(months);
  const rateBp = BigInt(annualRateBp);
  if (rateBp === 0n) return divideRoundingHalfUp(principalMinor, n);
  const growth = (periodRateDenominator + rateBp) ** n;
  const base = periodRateDenominator ** n;
  return divideRoundingHalfUp(
    principalMinor * rateBp * growth,
    periodRateDenominator * (growth - base),
  );
}

/**
 * The lines that repay `outstandingMinor` with instalments of `instalmentMinor`: interest on
 * what is outstanding each period, the rest principal, the last line whatever remains. At
 * most `linesMax` lines; the last of them takes all that is left.
 */
export function amortize(
  outstandingMinor: bigint,
  annualRateBp: number,
  instalmentMinor: bigint,
  linesMax: number,
  firstNumber = 1,
): ScheduleLine[] {
  const lines: ScheduleLine[] = [];
  let remainingMinor = outstandingMinor;
  while (remainingMinor > 0n) {
    const interestMinor = periodInterestMinor(remainingMinor, annualRateBp);
    const isLast = lines.length === linesMax - 1;
    const scheduledMinor = instalmentMinor - interestMinor;
    const principalMinor =
      isLast || scheduledMinor >= remainingMinor ? remainingMinor : scheduledMinor;
    lines.push({ number: firstNumber + lines.length, principalMinor, interestMinor });
    remainingMinor -= principalMinor;
  }
  return lines;
}

/** The whole schedule of a loan of `principalMinor` over `months` months. */
export function annuitySchedule(
  principalMinor: bigint,
  annualRateBp: number,
  months: number,
): Schedule {
  const instalmentMinor = annuityInstalmentMinor(principalMinor, annualRateBp, months);
  const lines = amortize(principalMinor, annualRateBp, instalmentMinor, months);
  const totalInterestMinor = lines.reduce((sum, line) => sum + line.interestMinor, 0n);
  return {
    instalmentMinor,
    lines,
    totalInterestMinor,
    totalRepayableMinor: principalMinor + totalInterestMinor,
  };
}

/** `date` (YYYY-MM-DD) plus `months` months; a day past the month's end becomes its last day. */
export function addMonths(date: string, months: number): string {
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}

/** Whole days from one YYYY-MM-DD date to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The UTC calendar date of a moment, YYYY-MM-DD. */
export function utcDate(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}
