// Issue 27, finding 1: the repayment plan took the first open instalment after today as the
// current one, so once it was paid the next became current and its whole period's interest
// fell due. The same cash paid the same day cost more interest split than whole, and paying
// ahead charged interest for months that had not begun. These go through the routes.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { accruedInterestMinor, utcDate } from '@coffer/contracts/loan-schedule';
import { defaultLoanTermsJson } from '@coffer/contracts/loans';
import { toDecimalString } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import type { TestCustomer } from '../../../test/customers.ts';
import { usd } from '../../../test/factories.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { borrower, disbursedLoan, repay } from '../../../test/loans.ts';
import type { Database } from '../../db/client.ts';

let app: FastifyInstance;
let db: Database;
let admin: TestClient;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = (await staffClient(app, 'admin')).client;
  },
  { checksAfterEach: 'ledger', env: { COFFER_LOAN_TERMS: defaultLoanTermsJson } },
);

const dayMs = 86_400_000;
const eur = toCurrencyCode('EUR');

/** Moves a disbursed loan's dates `days` back, as if it had been paid out then. */
async function backdate(loanId: string, days: number): Promise<void> {
  const disbursedOn = utcDate(new Date(Date.now() - days * dayMs));
  await db.query('UPDATE loans SET disbursed_on = $2 WHERE id = $1', [loanId, disbursedOn]);
  // PostgreSQL's date + months keeps the day or takes the month's last, as addMonths does.
  await db.query(
    "UPDATE loan_instalments SET due_on = ($2::date + number * interval '1 month')::date WHERE loan_id = $1",
    [loanId, disbursedOn],
  );
}

type Repaid = { repayments: { amountMinor: string; interestMinor: string }[] };
const interestPaid = (loan: Repaid) =>
  loan.repayments.reduce((sum, repayment) => sum + BigInt(repayment.interestMinor), 0n);
const amountPaid = (loan: Repaid) =>
  loan.repayments.reduce((sum, repayment) => sum + BigInt(repayment.amountMinor), 0n);

async function loanOf(customer: TestCustomer, loanId: string) {
  const overview = (await customer.client.get('/api/v1/loans')).json();
  return overview.loans.find((loan: { id: string }) => loan.id === loanId);
}

/** Pays `amountMinor` `times` times on the loan, each answered 201. */
async function repayTimes(
  customer: TestCustomer,
  loanId: string,
  amountMinor: bigint,
  currency: typeof usd,
  times: number,
) {
  for (let paid = 0; paid < times; paid += 1) {
    const response = await repay(customer, loanId, toDecimalString(amountMinor, currency));
    expect(response.statusCode, response.body).toBe(201);
  }
}

async function payOff(customer: TestCustomer, loanId: string, currency: typeof usd) {
  const before = await loanOf(customer, loanId);
  const paid = await repay(customer, loanId, toDecimalString(BigInt(before.payoffMinor), currency));
  expect(paid.statusCode, paid.body).toBe(201);
  return paid.json();
}

describe('interest owed on the day', () => {
  it('costs the same interest for the same cash paid the same day, split or whole', async () => {
    const whole = await borrower(app, admin, { country: 'DE' });
    const split = await borrower(app, admin, { country: 'DE' });
    const wholeLoan = await disbursedLoan(admin, whole, { amount: '500.00', months: 6 });
    const splitLoan = await disbursedLoan(admin, split, { amount: '500.00', months: 6 });
    const instalmentMinor = BigInt(wholeLoan.instalmentMinor ?? '0');
    await repayTimes(whole, wholeLoan.id, instalmentMinor * 2n, eur, 1);
    await repayTimes(split, splitLoan.id, instalmentMinor, eur, 2);
    const wholeAfter = await loanOf(whole, wholeLoan.id);
    const splitAfter = await loanOf(split, splitLoan.id);
    expect(interestPaid(splitAfter)).toBe(interestPaid(wholeAfter));
    // Paid on the day of disbursement: no interest has accrued yet.
    expect(interestPaid(wholeAfter)).toBe(0n);
    expect(splitAfter.outstandingPrincipalMinor).toBe(wholeAfter.outstandingPrincipalMinor);
    expect(splitAfter.payoffMinor).toBe(wholeAfter.payoffMinor);
    expect(splitAfter.instalments).toEqual(wholeAfter.instalments);
  });

  it('costs the same split or whole twenty days in: the interest accrued, once', async () => {
    const whole = await borrower(app, admin, { country: 'DE' });
    const split = await borrower(app, admin, { country: 'DE' });
    const wholeLoan = await disbursedLoan(admin, whole, { amount: '500.00', months: 6 });
    const splitLoan = await disbursedLoan(admin, split, { amount: '500.00', months: 6 });
    await backdate(wholeLoan.id, 20);
    await backdate(splitLoan.id, 20);
    const instalmentMinor = BigInt(wholeLoan.instalmentMinor ?? '0');
    await repayTimes(whole, wholeLoan.id, instalmentMinor * 2n, eur, 1);
    await repayTimes(split, splitLoan.id, instalmentMinor, eur, 2);
    const wholeAfter = await loanOf(whole, wholeLoan.id);
    const splitAfter = await loanOf(split, splitLoan.id);
    expect(interestPaid(wholeAfter)).toBe(accruedInterestMinor(50_000n, 1100, 20));
    expect(interestPaid(splitAfter)).toBe(interestPaid(wholeAfter));
    expect(splitAfter.payoffMinor).toBe(wholeAfter.payoffMinor);
  });

  it('charges no interest for instalments paid on the day of disbursement', async () => {
    // The wallet holds more than the loan, so a charge beyond the principal would be taken.
    const customer = await borrower(app, admin, { balance: '100.00' });
    const loan = await disbursedLoan(admin, customer, { amount: '1000.00', months: 12 });
    expect(loan.payoffMinor).toBe('100000');
    await repayTimes(customer, loan.id, BigInt(loan.instalmentMinor ?? '0'), usd, 11);
    const paidOff = await payOff(customer, loan.id, usd);
    expect(paidOff).toMatchObject({ status: 'repaid', outstandingPrincipalMinor: '0' });
    expect(interestPaid(paidOff)).toBe(0n);
    expect(amountPaid(paidOff)).toBe(100_000n);
  });

  it('charges what accrued in the current period, however many instalments are paid ahead', async () => {
    const customer = await borrower(app, admin, { balance: '100.00' });
    const loan = await disbursedLoan(admin, customer, { amount: '1000.00', months: 12 });
    await backdate(loan.id, 20);
    const accruedMinor = accruedInterestMinor(100_000n, 1200, 20);
    expect(BigInt((await loanOf(customer, loan.id)).payoffMinor)).toBe(100_000n + accruedMinor);
    await repayTimes(customer, loan.id, BigInt(loan.instalmentMinor ?? '0'), usd, 11);
    expect(interestPaid(await loanOf(customer, loan.id))).toBe(accruedMinor);
    const paidOff = await payOff(customer, loan.id, usd);
    expect(paidOff).toMatchObject({ status: 'repaid', outstandingPrincipalMinor: '0' });
    expect(interestPaid(paidOff)).toBe(accruedMinor);
    expect(amountPaid(paidOff)).toBe(100_000n + accruedMinor);
  });
  it('collects on the due date the rest of the period interest the schedule shows', async () => {
    const customer = await borrower(app, admin);
    const loan = await disbursedLoan(admin, customer, { amount: '1000.00', months: 12 });
    await repayTimes(customer, loan.id, 50_000n, usd, 1);
    const [first] = (await loanOf(customer, loan.id)).instalments;
    const restMinor =
      BigInt(first.principalMinor) + BigInt(first.interestMinor) - BigInt(first.paidMinor);
    // Paid ahead on day 0: the first period's scheduled interest is left, nothing more.
    expect(restMinor).toBe(BigInt(loan.instalments[0]?.interestMinor ?? '0'));
    const dueAt = new Date(`${first.dueOn}T12:00:00Z`);
    await db.query("UPDATE scheduled_jobs SET next_run_at = $1 WHERE name = 'loan-collection'", [
      dueAt,
    ]);
    await app.jobs.runDue(dueAt);
    expect((await app.ledger.balance(customer.wallet.id)).balanceMinor).toBe(50_000n - restMinor);
    const after = await loanOf(customer, loan.id);
    expect(after.repayments[1]).toMatchObject({
      amountMinor: String(restMinor),
      interestMinor: String(restMinor),
      isAutomatic: true,
    });
    expect(after.instalments[0].status).toBe('paid');
  });
});
