// Properties of the repayment plan (ADR 015 and its addendum), on the pure functions the
// service and the collection job use. Issue 27, finding 1: the same cash paid on the same day
// must cost the same interest however it is split, and never interest of a period that has
// not begun.
import {
  accruedInterestMinor,
  addMonths,
  annuitySchedule,
  daysBetween,
  smallerMinor,
  utcDate,
} from '@coffer/contracts/loan-schedule';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type InstalmentState,
  type LoanTermsOfRecord,
  planRepayment,
  positionOf,
} from './repayment-plan.ts';

type Loan = { terms: LoanTermsOfRecord; principalMinor: bigint; schedule: InstalmentState[] };

/** A loan as the disbursement writes it: the annuity schedule, due monthly from the day. */
function disbursed(
  principalMinor: bigint,
  annualRateBp: number,
  months: number,
  disbursedOn: string,
): Loan {
  const schedule = annuitySchedule(principalMinor, annualRateBp, months);
  return {
    terms: { annualRateBp, instalmentMinor: schedule.instalmentMinor, disbursedOn },
    principalMinor,
    schedule: schedule.lines.map((line) => ({
      ...line,
      dueOn: addMonths(disbursedOn, line.number),
      principalPaidMinor: 0n,
      interestPaidMinor: 0n,
    })),
  };
}

const dayAfter = (date: string, days: number) =>
  utcDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));

// Amounts in minor units of a currency with 0 (JPY), 2 (USD) or 3 (KWD) decimals, within
// each currency's loan terms.
const currencies = [
  { code: 'JPY', minMinor: 15_000n, maxMinor: 7_500_000n },
  { code: 'USD', minMinor: 10_000n, maxMinor: 5_000_000n },
  { code: 'KWD', minMinor: 30_000n, maxMinor: 15_000_000n },
];

const loans = fc
  .record({
    currency: fc.constantFrom(...currencies),
    share: fc.integer({ min: 0, max: 1_000_000 }),
    annualRateBp: fc.integer({ min: 0, max: 3_600 }),
    months: fc.integer({ min: 1, max: 60 }),
    disbursedOn: fc.oneof(
      // Month ends, where due dates are clamped, and any day.
      fc.constantFrom('2024-01-31', '2024-02-29', '2025-08-31', '2026-03-30', '2026-12-31'),
      fc
        .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 11, 31) })
        .map((ms) => utcDate(new Date(ms))),
    ),
  })
  .map(({ currency, share, annualRateBp, months, disbursedOn }) => ({
    currency: currency.code,
    loan: disbursed(
      currency.minMinor + ((currency.maxMinor - currency.minMinor) * BigInt(share)) / 1_000_000n,
      annualRateBp,
      months,
      disbursedOn,
    ),
  }));

/** Earlier repayments: so many days later, so many percent of that day's payoff. */
const histories = fc.array(
  fc.record({ days: fc.integer({ min: 0, max: 45 }), percent: fc.integer({ min: 0, max: 100 }) }),
  { maxLength: 6 },
);

/** The day of the test, some days after the history, and what is paid that day in all. */
const days = fc.record({
  days: fc.integer({ min: 0, max: 70 }),
  percent: fc.integer({ min: 1, max: 100 }),
  weights: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 12 }),
});

/** `total` in parts proportional to `weights`, each above zero, summing to `total`. */
function split(total: bigint, weights: number[]): bigint[] {
  const sum = BigInt(weights.reduce((a, b) => a + b, 0));
  let cumulative = 0n;
  let before = 0n;
  const parts: bigint[] = [];
  for (const weight of weights) {
    cumulative += BigInt(weight);
    const upTo = (total * cumulative) / sum;
    if (upTo > before) parts.push(upTo - before);
    before = upTo;
  }
  return parts;
}

const percentOf = (amountMinor: bigint, percent: number) =>
  (amountMinor * BigInt(percent) + 99n) / 100n;

const sumOf = (lines: InstalmentState[], part: (line: InstalmentState) => bigint) =>
  lines.reduce((sum, line) => sum + part(line), 0n);

/** The books of one loan hold whatever was paid: checked after every repayment. */
function checkSchedule(loan: Loan, schedule: InstalmentState[]) {
  expect(sumOf(schedule, (line) => line.principalMinor)).toBe(loan.principalMinor);
  const misfits = schedule.filter(
    (line) =>
      line.principalPaidMinor < 0n ||
      line.principalPaidMinor > line.principalMinor ||
      line.interestPaidMinor < 0n ||
      line.interestPaidMinor > line.interestMinor ||
      line.dueOn !== addMonths(loan.terms.disbursedOn, line.number),
  );
  expect(misfits).toEqual([]);
}

type Paid = { schedule: InstalmentState[]; principalMinor: bigint; interestMinor: bigint };

/** Repays each amount in turn on `today`, as the service writes the plan back. */
function repayAll(loan: Loan, schedule: InstalmentState[], amounts: bigint[], today: string): Paid {
  let lines = schedule;
  let principalMinor = 0n;
  let interestMinor = 0n;
  for (const amountMinor of amounts) {
    const plan = planRepayment(loan.terms, lines, amountMinor, today);
    expect(plan.principalMinor >= 0n && plan.interestMinor >= 0n).toBe(true);
    expect(plan.principalMinor + plan.interestMinor).toBe(amountMinor);
    lines = [...lines.filter((line) => line.number < plan.fromNumber), ...plan.instalments];
    expect(plan.outstandingPrincipalMinor).toBe(
      sumOf(lines, (line) => line.principalMinor - line.principalPaidMinor),
    );
    checkSchedule(loan, lines);
    principalMinor += plan.principalMinor;
    interestMinor += plan.interestMinor;
  }
  return { schedule: lines, principalMinor, interestMinor };
}

/** The loan after its history: the schedule, the last day paid on and the interest so far. */
function afterHistory(loan: Loan, history: { days: number; percent: number }[]) {
  let today = loan.terms.disbursedOn;
  let schedule = loan.schedule;
  let interestMinor = 0n;
  for (const step of history) {
    today = dayAfter(today, step.days);
    const { payoffMinor } = positionOf(loan.terms, schedule, today);
    const amountMinor = smallerMinor(percentOf(payoffMinor, step.percent), payoffMinor);
    if (amountMinor === 0n) continue;
    const paid = repayAll(loan, schedule, [amountMinor], today);
    schedule = paid.schedule;
    interestMinor += paid.interestMinor;
  }
  return { today, schedule, interestMinor };
}

/**
 * An upper bound on all the interest a loan can have been charged by the end of `today`,
 * from its schedule at disbursement alone: the scheduled interest of every period that has
 * ended, and of the current one the interest accrued on its scheduled opening principal.
 * Paying ahead only lowers balances, so it only lowers this.
 */
function interestBound(loan: Loan, today: string): bigint {
  let boundMinor = 0n;
  let openingMinor = loan.principalMinor;
  for (const line of loan.schedule) {
    if (line.dueOn <= today) boundMinor += line.interestMinor;
    else {
      const periodStart = addMonths(loan.terms.disbursedOn, line.number - 1);
      const accrued = accruedInterestMinor(
        openingMinor,
        loan.terms.annualRateBp,
        daysBetween(periodStart, today),
      );
      return boundMinor + smallerMinor(accrued, line.interestMinor);
    }
    openingMinor -= line.principalMinor;
  }
  return boundMinor;
}

/**
 * The loan after `history`, `days` later: its state, that day and its position then. Only
 * loans with something left to pay are of interest (fc.pre skips the others).
 */
function stillOwedOn(loan: Loan, history: { days: number; percent: number }[], days: number) {
  const before = afterHistory(loan, history);
  const today = dayAfter(before.today, days);
  const position = positionOf(loan.terms, before.schedule, today);
  fc.pre(position.payoffMinor > 0n);
  return { before, today, position };
}

describe('the repayment plan', () => {
  it('charges the same interest for repayments on one day, however the sum is split', () => {
    fc.assert(
      fc.property(loans, histories, days, ({ loan }, history, day) => {
        const { before, today, position } = stillOwedOn(loan, history, day.days);
        const totalMinor = smallerMinor(
          percentOf(position.payoffMinor, day.percent),
          position.payoffMinor,
        );
        const whole = repayAll(loan, before.schedule, [totalMinor], today);
        const parts = repayAll(loan, before.schedule, split(totalMinor, day.weights), today);
        expect(parts.interestMinor).toBe(whole.interestMinor);
        expect(parts.principalMinor).toBe(whole.principalMinor);
        expect(parts.schedule).toEqual(whole.schedule);
        // Never more than is owed that day: what ended periods left unpaid and what the
        // current period has accrued; and in all, never interest of a period not begun.
        expect(whole.interestMinor <= position.interestOwedMinor).toBe(true);
        expect(before.interestMinor + whole.interestMinor <= interestBound(loan, today)).toBe(true);
        for (const line of whole.schedule) {
          if (addMonths(loan.terms.disbursedOn, line.number - 1) > today) {
            expect(line.interestPaidMinor).toBe(0n);
          }
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('repays the loan exactly when the payoff is paid, in one payment or in parts', () => {
    fc.assert(
      fc.property(loans, histories, days, ({ loan }, history, day) => {
        const { before, today, position } = stillOwedOn(loan, history, day.days);
        const parts = split(position.payoffMinor, day.weights);
        const paid = repayAll(loan, before.schedule, parts, today);
        const principalBefore = sumOf(before.schedule, (line) => line.principalPaidMinor);
        expect(principalBefore + paid.principalMinor).toBe(loan.principalMinor);
        expect(paid.interestMinor).toBe(position.interestOwedMinor);
        expect(paid.schedule.every((line) => line.principalPaidMinor === line.principalMinor)).toBe(
          true,
        );
        expect(paid.schedule.every((line) => line.interestPaidMinor === line.interestMinor)).toBe(
          true,
        );
        expect(positionOf(loan.terms, paid.schedule, today).payoffMinor).toBe(0n);
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('charges exactly the disclosed schedule when each instalment is paid on its due date', () => {
    fc.assert(
      fc.property(loans, ({ loan }) => {
        let schedule = loan.schedule;
        let interestMinor = 0n;
        for (const line of loan.schedule) {
          const { dueNowMinor } = positionOf(loan.terms, schedule, line.dueOn);
          expect(dueNowMinor).toBe(line.principalMinor + line.interestMinor);
          const paid = repayAll(loan, schedule, [dueNowMinor], line.dueOn);
          schedule = paid.schedule;
          interestMinor += paid.interestMinor;
        }
        expect(interestMinor).toBe(sumOf(loan.schedule, (line) => line.interestMinor));
        expect(schedule).toEqual(
          loan.schedule.map((line) => ({
            ...line,
            principalPaidMinor: line.principalMinor,
            interestPaidMinor: line.interestMinor,
          })),
        );
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});
