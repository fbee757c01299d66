import {
  accruedInterestMinor,
  addMonths,
  amortize,
  daysBetween,
  smallerMinor,
} from '@coffer/contracts/loan-schedule';
import { assert } from '../../platform/assert.ts';
import type { InstalmentWrite } from './queries.ts';

/**
 * How a repayment is spread over a disbursed loan's schedule (ADR 015 and its addendum), as
 * plain arithmetic on its instalments: no database, so the model test and the service share
 * it. Instalment k's period runs from the disbursement date plus k − 1 months to its due
 * date, the disbursement date plus k months.
 *
 * The interest owed on day D is, in one place (`positionOf`):
 * - the unpaid interest of every instalment whose period has ended (due on or before D), and
 * - of the current period (the one D falls in), the interest accrued to D: actual/365 on the
 *   principal outstanding when the period began, at most its scheduled interest.
 * A period that begins after D owes nothing on D. The rest of the current period's scheduled
 * interest falls due with its instalment, on its due date.
 *
 * A repayment on D pays, in this order, until it is spent:
 * 1. the instalments due by D (and overdue), oldest first: interest, then principal;
 * 2. the interest accrued in the current period;
 * 3. principal: the current instalment's, then the later instalments' (paid ahead). Principal
 *    paid ahead is recorded on the current instalment, and the later instalments are
 *    re-amortized on the lower balance with the same instalment, so the schedule gets
 *    shorter and their interest falls. The current period's opening principal, which its
 *    accrual is computed on, stays what it was.
 * 4. Once no principal is left, the current period is charged only what it has been paid
 *    (the interest accrued to D): the loan is repaid.
 * Each step is a fixed amount on D that no payment of the same day changes, so the same cash
 * paid on D costs the same interest whether it is paid at once or in parts, and paying the
 * payoff amount (everything owed on D) is just the payment that reaches step 4.
 */

export type LoanTermsOfRecord = {
  annualRateBp: number;
  instalmentMinor: bigint;
  disbursedOn: string;
};

export type InstalmentState = InstalmentWrite;

const owedPrincipal = (line: InstalmentState) => line.principalMinor - line.principalPaidMinor;
const owedInterest = (line: InstalmentState) => line.interestMinor - line.interestPaidMinor;
const sumOf = (lines: InstalmentState[], part: (line: InstalmentState) => bigint) =>
  lines.reduce((sum, line) => sum + part(line), 0n);
export const isSettled = (line: InstalmentState) =>
  owedPrincipal(line) === 0n && owedInterest(line) === 0n;

export type LoanPosition = {
  outstandingPrincipalMinor: bigint;
  /** Due and overdue instalments, unpaid, by today. */
  dueNowMinor: bigint;
  /** The current period's interest accrued to today and not yet paid. */
  accruedNowMinor: bigint;
  /** All the interest owed today: of due instalments, and accrued in the current period. */
  interestOwedMinor: bigint;
  /** Everything owed today: the principal left and the interest owed. */
  payoffMinor: bigint;
};

/**
 * The schedule seen from `today`: the unpaid instalments whose periods have ended, the one
 * whose period `today` falls in (paid or not), and those of periods yet to begin.
 */
function splitByToday(instalments: InstalmentState[], today: string) {
  const lines = [...instalments].sort((a, b) => a.number - b.number);
  const due = lines.filter((line) => line.dueOn <= today && !isSettled(line));
  const current = lines.find((line) => line.dueOn > today) ?? null;
  const later = current ? lines.filter((line) => line.number > current.number) : [];
  return { due, current, later };
}

/** The principal outstanding when the current period began: its own and all later. */
function openingPrincipalOf(current: InstalmentState, later: InstalmentState[]): bigint {
  return current.principalMinor + sumOf(later, owedPrincipal);
}

/** Interest of the current period accrued to today, at most its scheduled interest, unpaid. */
function accruedOfCurrent(
  terms: LoanTermsOfRecord,
  current: InstalmentState,
  later: InstalmentState[],
  today: string,
): bigint {
  const periodStart = addMonths(terms.disbursedOn, current.number - 1);
  const accrued = accruedInterestMinor(
    openingPrincipalOf(current, later),
    terms.annualRateBp,
    daysBetween(periodStart, today),
  );
  const cappedMinor = smallerMinor(accrued, current.interestMinor);
  return cappedMinor > current.interestPaidMinor ? cappedMinor - current.interestPaidMinor : 0n;
}

/** What is owed on `today`: what the customer is shown, quoted and collected. */
export function positionOf(
  terms: LoanTermsOfRecord,
  instalments: InstalmentState[],
  today: string,
): LoanPosition {
  const { due, current, later } = splitByToday(instalments, today);
  const outstandingPrincipalMinor = sumOf(instalments, owedPrincipal);
  const accruedNowMinor = current ? accruedOfCurrent(terms, current, later, today) : 0n;
  const interestOwedMinor = sumOf(due, owedInterest) + accruedNowMinor;
  return {
    outstandingPrincipalMinor,
    dueNowMinor: sumOf(due, (line) => owedPrincipal(line) + owedInterest(line)),
    accruedNowMinor,
    interestOwedMinor,
    payoffMinor: outstandingPrincipalMinor + interestOwedMinor,
  };
}

export type RepaymentPlan = {
  principalMinor: bigint;
  interestMinor: bigint;
  /** The instalments from `fromNumber` on, as they are after the repayment. */
  fromNumber: number;
  instalments: InstalmentState[];
  outstandingPrincipalMinor: bigint;
  isRepaid: boolean;
};

/** The repayment of `amountMinor` (above zero, at most the payoff) on `today`. */
export function planRepayment(
  terms: LoanTermsOfRecord,
  schedule: InstalmentState[],
  amountMinor: bigint,
  today: string,
): RepaymentPlan {
  const position = positionOf(terms, schedule, today);
  assert(
    amountMinor > 0n && amountMinor <= position.payoffMinor,
    'a repayment is within the payoff',
  );
  const instalments = schedule.map((line) => ({ ...line })).sort((a, b) => a.number - b.number);
  const { due, current, later } = splitByToday(instalments, today);
  let leftMinor = amountMinor;
  let principalMinor = 0n;
  let interestMinor = 0n;
  /** Pays up to `owedMinor` of the line's interest; says whether all of it was paid. */
  const payInterest = (line: InstalmentState, owedMinor: bigint) => {
    const paidMinor = smallerMinor(leftMinor, owedMinor);
    line.interestPaidMinor += paidMinor;
    interestMinor += paidMinor;
    leftMinor -= paidMinor;
    return paidMinor === owedMinor;
  };
  const payPrincipal = (line: InstalmentState) => {
    const paidMinor = smallerMinor(leftMinor, owedPrincipal(line));
    line.principalPaidMinor += paidMinor;
    principalMinor += paidMinor;
    leftMinor -= paidMinor;
  };
  for (const line of due) {
    payInterest(line, owedInterest(line));
    payPrincipal(line);
  }
  if (current) {
    const isAccruedPaid = payInterest(current, position.accruedNowMinor);
    payPrincipal(current);
    const open = later.filter((line) => !isSettled(line));
    const aheadMinor = smallerMinor(leftMinor, sumOf(open, owedPrincipal));
    if (aheadMinor > 0n && open[0]) {
      // Paid ahead: recorded on the current instalment, the later ones re-amortized.
      current.principalMinor += aheadMinor;
      current.principalPaidMinor += aheadMinor;
      principalMinor += aheadMinor;
      leftMinor -= aheadMinor;
      const reamortized = amortize(
        sumOf(open, owedPrincipal) - aheadMinor,
        terms.annualRateBp,
        terms.instalmentMinor,
        open.length,
        open[0].number,
      ).map((line) => ({
        ...line,
        dueOn: addMonths(terms.disbursedOn, line.number),
        principalPaidMinor: 0n,
        interestPaidMinor: 0n,
      }));
      instalments.splice(instalments.indexOf(open[0]), instalments.length, ...reamortized);
    }
    if (isAccruedPaid && sumOf(instalments, owedPrincipal) === 0n) {
      // Repaid: the rest of the current period never accrues.
      current.interestMinor = current.interestPaidMinor;
    }
  }
  assert(leftMinor === 0n, 'a repayment within the payoff is spent entirely');
  const firstTouched = due[0]?.number ?? current?.number ?? 1;
  return {
    principalMinor,
    interestMinor,
    fromNumber: firstTouched,
    instalments: instalments.filter((line) => line.number >= firstTouched),
    outstandingPrincipalMinor: sumOf(instalments, owedPrincipal),
    isRepaid: instalments.every(isSettled),
  };
}
