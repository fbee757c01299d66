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
 * How a repayment is spread over a disbursed loan's schedule (ADR 015), as plain
 * arithmetic on its instalments: no database, so the model test and the service share it.
 *
 * 1. Instalments due by today (and overdue), oldest first: interest, then principal.
 * 2. The current instalment (the first not yet due): interest, then principal.
 * 3. Anything more is paid ahead: it lowers the principal of the later instalments, which
 *    are re-amortized with the same instalment on the lower balance, so the schedule gets
 *    shorter and their interest is never charged on money already paid back.
 * Paying the payoff amount settles everything instead: the current period is charged only
 * the interest accrued to today (actual/365), later periods none.
 */

export type LoanTermsOfRecord = {
  annualRateBp: number;
  instalmentMinor: bigint;
  disbursedOn: string;
};

export type InstalmentState = InstalmentWrite;

const owedPrincipal = (line: InstalmentState) => line.principalMinor - line.principalPaidMinor;
const owedInterest = (line: InstalmentState) => line.interestMinor - line.interestPaidMinor;
export const isSettled = (line: InstalmentState) =>
  owedPrincipal(line) === 0n && owedInterest(line) === 0n;

export type LoanPosition = {
  outstandingPrincipalMinor: bigint;
  /** Due and overdue instalments, unpaid, by today. */
  dueNowMinor: bigint;
  /** The current period's interest accrued to today and not yet paid. */
  accruedNowMinor: bigint;
  payoffMinor: bigint;
};

function splitByToday(instalments: InstalmentState[], today: string) {
  const open = instalments.filter((line) => !isSettled(line));
  const due = open.filter((line) => line.dueOn <= today);
  const current = open.find((line) => line.dueOn > today) ?? null;
  const later = current ? open.filter((line) => line.number > current.number) : [];
  return { due, current, later };
}

/** Interest of the current period accrued to today, at most its scheduled interest. */
function accruedOfCurrent(
  terms: LoanTermsOfRecord,
  current: InstalmentState,
  later: InstalmentState[],
  today: string,
): bigint {
  const periodStart = addMonths(terms.disbursedOn, current.number - 1);
  const balanceAtStartMinor =
    current.principalMinor + later.reduce((sum, line) => sum + owedPrincipal(line), 0n);
  const accrued = accruedInterestMinor(
    balanceAtStartMinor,
    terms.annualRateBp,
    daysBetween(periodStart, today),
  );
  const cappedMinor = smallerMinor(accrued, current.interestMinor);
  return cappedMinor > current.interestPaidMinor ? cappedMinor - current.interestPaidMinor : 0n;
}

export function positionOf(
  terms: LoanTermsOfRecord,
  instalments: InstalmentState[],
  today: string,
): LoanPosition {
  const { due, current, later } = splitByToday(instalments, today);
  const outstandingPrincipalMinor = instalments.reduce(
    (sum, line) => sum + owedPrincipal(line),
    0n,
  );
  const dueNowMinor = due.reduce((sum, line) => sum + owedPrincipal(line) + owedInterest(line), 0n);
  const accruedNowMinor = current ? accruedOfCurrent(terms, current, later, today) : 0n;
  const dueInterestMinor = due.reduce((sum, line) => sum + owedInterest(line), 0n);
  return {
    outstandingPrincipalMinor,
    dueNowMinor,
    accruedNowMinor,
    payoffMinor: outstandingPrincipalMinor + dueInterestMinor + accruedNowMinor,
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

/** Pays interest then principal of one instalment from `leftMinor`; returns what is left. */
function payInstalment(line: InstalmentState, leftMinor: bigint, interestCapMinor: bigint) {
  const interestMinor = smallerMinor(leftMinor, interestCapMinor);
  const afterInterest = leftMinor - interestMinor;
  const principalOwed = owedPrincipal(line);
  const principalMinor = smallerMinor(afterInterest, principalOwed);
  line.interestPaidMinor += interestMinor;
  line.principalPaidMinor += principalMinor;
  return { interestMinor, principalMinor, leftMinor: afterInterest - principalMinor };
}

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
  const instalments = schedule.map((line) => ({ ...line }));
  const { due, current, later } = splitByToday(instalments, today);
  const isPayoff = amountMinor === position.payoffMinor;
  let leftMinor = amountMinor;
  let principalMinor = 0n;
  let interestMinor = 0n;
  const pay = (line: InstalmentState, interestCapMinor: bigint) => {
    const paid = payInstalment(line, leftMinor, interestCapMinor);
    principalMinor += paid.principalMinor;
    interestMinor += paid.interestMinor;
    leftMinor = paid.leftMinor;
  };
  for (const line of due) pay(line, owedInterest(line));
  const firstTouched = due[0]?.number ?? current?.number ?? 1;
  if (current && isPayoff) {
    // Settling today: the current period costs the interest accrued so far, later ones none.
    current.interestMinor = current.interestPaidMinor + position.accruedNowMinor;
    pay(current, position.accruedNowMinor);
    for (const line of later) {
      line.interestMinor = 0n;
      pay(line, 0n);
    }
  } else if (current) {
    pay(current, owedInterest(current));
    if (leftMinor > 0n) {
      const laterPrincipalMinor = later.reduce((sum, line) => sum + owedPrincipal(line), 0n);
      assert(leftMinor < laterPrincipalMinor, 'paying ahead below the payoff leaves principal');
      principalMinor += leftMinor;
      const lines = amortize(
        laterPrincipalMinor - leftMinor,
        terms.annualRateBp,
        terms.instalmentMinor,
        later.length,
        current.number + 1,
      );
      leftMinor = 0n;
      const reamortized = lines.map((line) => ({
        ...line,
        dueOn: addMonths(terms.disbursedOn, line.number),
        principalPaidMinor: 0n,
        interestPaidMinor: 0n,
      }));
      instalments.splice(instalments.indexOf(current) + 1, instalments.length, ...reamortized);
    }
  }
  assert(leftMinor === 0n, 'a repayment within the payoff is spent entirely');
  const outstandingPrincipalMinor = instalments.reduce(
    (sum, line) => sum + owedPrincipal(line),
    0n,
  );
  return {
    principalMinor,
    interestMinor,
    fromNumber: firstTouched,
    instalments: instalments.filter((line) => line.number >= firstTouched),
    outstandingPrincipalMinor,
    isRepaid: instalments.every(isSettled),
  };
}
