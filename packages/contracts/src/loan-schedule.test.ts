import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accruedInterestMinor,
  addMonths,
  amortize,
  annuitySchedule,
  divideRoundingHalfUp,
} from './loan-schedule.ts';
import { costDisclosure, parseLoanTerms } from './loans.ts';

describe('the annuity schedule against figures computed independently', () => {
  // Each figure below was computed outside this code, with Python's decimal module (60
  // significant digits, ROUND_HALF_UP to the minor unit) from the textbook formulas
  // A = P·r / (1 − (1 + r)^−n), interest_k = round(balance_k × r), principal_k = A −
  // interest_k, the last principal = the balance left:
  //   r = D(pct)/100/12; A = (P*r/(1-(1+r)**-n)).quantize(q, ROUND_HALF_UP)
  // The first case is also the figure published by common amortization tables
  // ($10,000 at 12 % over 12 months: $888.49 a month).
  const fixedCases = [
    {
      name: '10,000.00 at 12.00 % over 12 months: 888.49 a month, 661.86 interest',
      principalMinor: 1_000_000n,
      rateBp: 1200,
      months: 12,
      instalmentMinor: 88_849n,
      totalInterestMinor: 66_186n,
      first: { principalMinor: 78_849n, interestMinor: 10_000n },
      last: { principalMinor: 87_967n, interestMinor: 880n },
    },
    {
      name: '2,500.00 at 9.50 % over 18 months: 149.57 a month, 192.19 interest',
      principalMinor: 250_000n,
      rateBp: 950,
      months: 18,
      instalmentMinor: 14_957n,
      totalInterestMinor: 19_219n,
      first: { principalMinor: 12_978n, interestMinor: 1_979n },
      last: { principalMinor: 14_833n, interestMinor: 117n },
    },
    {
      name: 'JPY 1,000,000 at 8.00 % over 36 months (no minor digits): 31,336 a month',
      principalMinor: 1_000_000n,
      rateBp: 800,
      months: 36,
      instalmentMinor: 31_336n,
      totalInterestMinor: 128_113n,
      first: { principalMinor: 24_669n, interestMinor: 6_667n },
      last: { principalMinor: 31_145n, interestMinor: 208n },
    },
  ];

  for (const fixed of fixedCases) {
    it(fixed.name, () => {
      const schedule = annuitySchedule(fixed.principalMinor, fixed.rateBp, fixed.months);
      expect(schedule.instalmentMinor).toBe(fixed.instalmentMinor);
      expect(schedule.totalInterestMinor).toBe(fixed.totalInterestMinor);
      expect(schedule.lines[0]).toEqual({ number: 1, ...fixed.first });
      expect(schedule.lines.at(-1)).toEqual({ number: fixed.months, ...fixed.last });
    });
  }

  it('spreads a loan at 0 % evenly, the remainder in the last instalment', () => {
    const schedule = annuitySchedule(1_000n, 0, 3);
    expect(schedule.lines.map((line) => line.principalMinor)).toEqual([333n, 333n, 334n]);
    expect(schedule.totalInterestMinor).toBe(0n);
  });
});

const loans = fc.record({
  principalMinor: fc.bigInt({ min: 10_000n, max: 10n ** 12n }),
  annualRateBp: fc.integer({ min: 0, max: 10_000 }),
  months: fc.integer({ min: 1, max: 60 }),
});

describe('the annuity schedule for any loan in range', () => {
  it('has principal parts that sum exactly to the principal', () => {
    fc.assert(
      fc.property(loans, ({ principalMinor, annualRateBp, months }) => {
        const { lines } = annuitySchedule(principalMinor, annualRateBp, months);
        expect(lines.reduce((sum, line) => sum + line.principalMinor, 0n)).toBe(principalMinor);
        expect(lines.length).toBe(months);
      }),
    );
  });

  it('has non-negative integer parts, equal instalments except the last', () => {
    fc.assert(
      fc.property(loans, ({ principalMinor, annualRateBp, months }) => {
        const schedule = annuitySchedule(principalMinor, annualRateBp, months);
        for (const line of schedule.lines) {
          expect(typeof line.principalMinor).toBe('bigint');
          expect(line.principalMinor >= 0n && line.interestMinor >= 0n).toBe(true);
        }
        for (const line of schedule.lines.slice(0, -1)) {
          expect(line.principalMinor + line.interestMinor).toBe(schedule.instalmentMinor);
        }
      }),
    );
  });

  it('discloses the totals of the schedule it will fix', () => {
    fc.assert(
      fc.property(loans, ({ principalMinor, annualRateBp, months }) => {
        const schedule = annuitySchedule(principalMinor, annualRateBp, months);
        const disclosed = costDisclosure(principalMinor, months, { annualRateBp });
        const interestMinor = schedule.lines.reduce((sum, line) => sum + line.interestMinor, 0n);
        expect(disclosed.totalInterestMinor).toBe(interestMinor);
        expect(disclosed.totalRepayableMinor).toBe(principalMinor + interestMinor);
        expect(disclosed.instalmentMinor).toBe(schedule.instalmentMinor);
        expect(disclosed.instalmentCount).toBe(months);
      }),
    );
  });

  it('re-amortizes a smaller balance in no more lines, with no more interest', () => {
    fc.assert(
      fc.property(loans, fc.bigInt({ min: 1n, max: 100n }), (loan, percent) => {
        const schedule = annuitySchedule(loan.principalMinor, loan.annualRateBp, loan.months);
        const smallerMinor = (loan.principalMinor * (100n - percent)) / 100n;
        const lines = amortize(
          smallerMinor,
          loan.annualRateBp,
          schedule.instalmentMinor,
          loan.months,
        );
        expect(lines.length).toBeLessThanOrEqual(loan.months);
        expect(lines.reduce((sum, line) => sum + line.principalMinor, 0n)).toBe(smallerMinor);
        const interestMinor = lines.reduce((sum, line) => sum + line.interestMinor, 0n);
        expect(interestMinor).toBeLessThanOrEqual(schedule.totalInterestMinor);
      }),
    );
  });
});

describe('helpers', () => {
  it('rounds half up', () => {
    expect(divideRoundingHalfUp(5n, 10n)).toBe(1n);
    expect(divideRoundingHalfUp(4n, 10n)).toBe(0n);
  });

  it('accrues interest actual/365: 10,000.00 at 12 % for 30 days is 98.63', () => {
    // 10,000 × 0.12 × 30 / 365 = 98.630… (by hand).
    expect(accruedInterestMinor(1_000_000n, 1200, 30)).toBe(9_863n);
  });

  it('adds months, keeping to the end of shorter months', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15');
  });

  it('reads the operator terms and refuses a wrong one with its reason', () => {
    const terms = parseLoanTerms(
      '{"USD":{"annualRateBp":1200,"amountMin":"100.00","amountMax":"500.00","monthsMax":12}}',
    );
    expect(terms.get('USD')?.amountMaxMinor).toBe(50_000n);
    expect(() =>
      parseLoanTerms(
        '{"USD":{"annualRateBp":1200,"amountMin":"1","amountMax":"5","monthsMax":61}}',
      ),
    ).toThrow();
    expect(() =>
      parseLoanTerms('{"XXY":{"annualRateBp":1,"amountMin":"1","amountMax":"5","monthsMax":6}}'),
    ).toThrow(/ISO 4217/);
    expect(() =>
      parseLoanTerms('{"JPY":{"annualRateBp":1,"amountMin":"1.5","amountMax":"5","monthsMax":6}}'),
    ).toThrow(/decimal/);
  });
});
