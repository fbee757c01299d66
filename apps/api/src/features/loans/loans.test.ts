import { annuitySchedule } from '@coffer/contracts/loan-schedule';
import { defaultLoanTermsJson } from '@coffer/contracts/loans';
import { toDecimalString } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { usd } from '../../../test/factories.ts';
import { fourEyesStaff, staffClient, type TestClient } from '../../../test/http.ts';
import {
  applicantDetails,
  applyForLoan,
  borrower,
  disburse,
  disbursedLoan,
  repay,
  setEligibility,
} from '../../../test/loans.ts';
import { lastStepUpCode } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';

let app: FastifyInstance;
let db: Database;
let admin: TestClient;
let secondAdmin: TestClient;
let support: TestClient;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    ({ admin, secondAdmin, support } = await fourEyesStaff(app));
  },
  { checksAfterEach: 'ledger', env: { COFFER_LOAN_TERMS: defaultLoanTermsJson } },
);

const dayMs = 86_400_000;

async function loanCount(userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM loans WHERE user_id = $1',
    [userId],
  );
  return found.rows[0]?.count ?? -1;
}

async function walletBalance(customer: TestCustomer): Promise<bigint> {
  return (await app.ledger.balance(customer.wallet.id)).balanceMinor;
}

describe('eligibility', () => {
  it('is "not yet assessed" until staff set it, then shows the amount and reason', async () => {
    const customer = await createCustomer(app, { level: 2 });
    const before = await customer.client.get('/api/v1/loans');
    expect(before.json()).toMatchObject({ eligibility: null, loanBalanceMinor: '0', loans: [] });
    expect(before.json().terms).toMatchObject({ currency: 'USD', annualRateBp: 1200 });
    expect((await setEligibility(support, customer.user.id, '2500.00')).statusCode).toBe(200);
    const after = await customer.client.get('/api/v1/loans');
    expect(after.json().eligibility).toMatchObject({
      amountMinor: '250000',
      reason: 'Salary slips checked',
    });
    const audit = await db.query(
      "SELECT reason FROM audit_events WHERE action = 'loan_eligibility_set' AND subject_user_id = $1",
      [customer.user.id],
    );
    expect(audit.rows).toEqual([{ reason: 'Salary slips checked' }]);
  });

  it('keeps the note for staff only out of every answer the customer gets', async () => {
    const customer = await createCustomer(app, { level: 2 });
    const staffNote = 'Salary 3,500 net per month stated in support chat; no debts';
    const set = await admin.request(
      'PUT',
      `/api/v1/admin/users/${customer.user.id}/loan-eligibility`,
      { amount: '1000.00', reason: 'Assessed on your stated income', staffNote },
    );
    expect(set.statusCode).toBe(200);
    const seen = await customer.client.get('/api/v1/loans');
    expect(seen.json().eligibility.reason).toBe('Assessed on your stated income');
    for (const path of ['/api/v1/loans', '/api/v1/notifications', '/api/v1/profile/activity']) {
      const answer = await customer.client.get(path);
      expect(answer.statusCode, path).toBe(200);
      expect(answer.body, path).not.toContain('3,500');
    }
    const audit = (await admin.get(`/api/v1/admin/audit?subjectUserId=${customer.user.id}`)).json();
    expect(JSON.stringify(audit)).toContain(staffNote);
  });

  it('needs a reason and a valid amount, and is never set on staff', async () => {
    const customer = await createCustomer(app, { level: 2 });
    const noReason = await admin.request(
      'PUT',
      `/api/v1/admin/users/${customer.user.id}/loan-eligibility`,
      { amount: '10.00', reason: '' },
    );
    expect(noReason.statusCode).toBe(400);
    expect((await setEligibility(admin, customer.user.id, '1.234')).statusCode).toBe(400);
    const staff = await staffClient(app, 'support');
    expect((await setEligibility(admin, staff.user.id, '10.00')).statusCode).toBe(403);
  });
});

describe('applying', () => {
  it('refuses level 1 with the words of the loan page', async () => {
    const customer = await createCustomer(app, { level: 1 });
    const response = await applyForLoan(customer, { amount: '100.00', months: 12 });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.message).toBe('Reach level 2 to access loan services');
    expect(await loanCount(customer.user.id)).toBe(0);
  });

  it('refuses each bad input with its message and writes nothing', async () => {
    const customer = await borrower(app, admin, { eligibility: '1000.00' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: '100.00', months: 0 }, 400, 'Enter a whole number of months from 1 to 60'],
      [{ amount: '100.00', months: 61 }, 400, 'Enter a whole number of months from 1 to 60'],
      [{ amount: '100.00', months: 2.5 }, 400, 'Enter a whole number of months from 1 to 60'],
      [{ amount: '100.00', months: 6, monthlySalary: 'lots' }, 400, 'Enter your monthly salary'],
      [{ amount: '100.00', months: 6, monthlySalary: '0' }, 400, 'Enter your monthly salary'],
      [{ amount: '100.001', months: 6 }, 400, 'Enter the amount as a number above zero'],
      [{ amount: '-5', months: 6 }, 400, 'Enter the amount as a number above zero'],
      [
        { amount: '1000.01', months: 6 },
        400,
        'Requested amount is above your approved eligibility',
      ],
      [{ amount: '50.00', months: 6 }, 400, 'Loans in USD are from $100.00 to $50,000.00'],
      [{ amount: '100.00', months: 6, fullName: '  ' }, 400, 'Please fill all personal details'],
      [{ amount: '100.00', months: 6, address: '' }, 400, 'Please fill all personal details'],
      // A right-to-left override would make staff read another name than the one stored.
      [
        { amount: '100.00', months: 6, fullName: 'Ada \u202eecalevoL' },
        400,
        'Remove the invisible control character (U+202E)',
      ],
    ];
    for (const [body, status, message] of cases) {
      const response = await customer.client.post('/api/v1/loans', {
        ...applicantDetails,
        ...body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.body, JSON.stringify(body)).toContain(message);
    }
    const noPhone = await customer.client.post('/api/v1/loans', {
      fullName: 'A',
      address: 'B',
      monthlySalary: '1.00',
      amount: '100.00',
      months: 6,
    });
    expect(noPhone.json().error.fields.phone).toBe('Please fill all personal details');
    expect(await loanCount(customer.user.id)).toBe(0);
  });

  it('refuses an amount above the terms maximum even within eligibility', async () => {
    const customer = await borrower(app, admin, { eligibility: '90000.00' });
    const response = await applyForLoan(customer, { amount: '60000.00', months: 12 });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain('$50,000.00');
  });

  it('refuses a currency with no terms and says so, to staff and to the customer', async () => {
    const customer = await createCustomer(app, { level: 2, country: 'GB' });
    // Staff cannot approve an eligibility the customer could never use.
    const eligibility = await setEligibility(admin, customer.user.id, '1000.00');
    expect(eligibility.statusCode).toBe(409);
    expect(eligibility.json().error).toMatchObject({
      code: 'loans_not_offered',
      message:
        'Loans are not offered in GBP: the operator has set no loan terms for it (COFFER_LOAN_TERMS).',
    });
    const overview = await customer.client.get('/api/v1/loans');
    expect(overview.json().eligibility).toBeNull();
    expect(overview.json().terms).toBeNull();
    const response = await applyForLoan(customer, { amount: '100.00', months: 6 });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('Loans are not offered in your currency yet.');
  });

  it('takes one pending application at a time', async () => {
    const customer = await borrower(app, admin);
    const first = await applyForLoan(customer, { amount: '500.00', months: 6 });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ status: 'pending', amountMinor: '50000', months: 6 });
    const second = await applyForLoan(customer, { amount: '400.00', months: 6 });
    expect(second.statusCode).toBe(409);
    expect(await loanCount(customer.user.id)).toBe(1);
  });

  it('counts what the customer already owes or was approved for against the eligibility', async () => {
    const customer = await borrower(app, admin, { eligibility: '1000.00' });
    await disbursedLoan(admin, customer, { amount: '600.00', months: 6 });
    const beyond = await applyForLoan(customer, { amount: '600.00', months: 6 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().error.message).toBe('Requested amount is above your approved eligibility');
    const approvedOnly = await applyForLoan(customer, { amount: '300.00', months: 6 });
    expect(approvedOnly.statusCode).toBe(201);
    expect(
      (await admin.post(`/api/v1/admin/loans/${approvedOnly.json().id}/approve`, {})).statusCode,
    ).toBe(200);
    // 600.00 owed and 300.00 approved: 100.00 is what is left of the 1,000.00.
    expect((await applyForLoan(customer, { amount: '200.00', months: 6 })).statusCode).toBe(400);
    expect((await applyForLoan(customer, { amount: '100.00', months: 6 })).statusCode).toBe(201);
    expect(await loanCount(customer.user.id)).toBe(3);
  });
});

describe('deciding', () => {
  it('refuses to approve an application above an eligibility lowered since it was sent', async () => {
    const customer = await borrower(app, admin, { eligibility: '1500.00' });
    const loan = (await applyForLoan(customer, { amount: '1000.00', months: 6 })).json();
    expect((await setEligibility(support, customer.user.id, '100.00')).statusCode).toBe(200);
    const refused = await admin.post(`/api/v1/admin/loans/${loan.id}/approve`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('loan_above_eligibility');
    const declined = await admin.post(`/api/v1/admin/loans/${loan.id}/decline`, {
      reason: 'Above the new eligibility',
    });
    expect(declined.json()).toMatchObject({ status: 'declined' });
  });

  it('lists pending applications oldest first and counts them, with the loans to disburse and the assessment requests, on the staff home', async () => {
    const first = await borrower(app, admin);
    const second = await borrower(app, admin);
    const a = (await applyForLoan(first, { amount: '200.00', months: 3 })).json();
    const b = (await applyForLoan(second, { amount: '300.00', months: 3 })).json();
    const ids: string[] = (await support.get('/api/v1/admin/queues/loans'))
      .json()
      .items.map((loan: { id: string }) => loan.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    const lengthOf = async (path: string) => (await support.get(path)).json().items.length;
    const toDisburse = await lengthOf('/api/v1/admin/queues/loans/to-disburse');
    const assessments = await lengthOf('/api/v1/admin/queues/loans/assessments');
    const counts = (await support.get('/api/v1/admin/queues')).json().items;
    expect(counts.find((item: { queue: string }) => item.queue === 'loans').openCount).toBe(
      ids.length + toDisburse + assessments,
    );
  });

  it('declines with a required reason the customer sees, once', async () => {
    const customer = await borrower(app, admin);
    const loan = (await applyForLoan(customer, { amount: '200.00', months: 3 })).json();
    expect((await admin.post(`/api/v1/admin/loans/${loan.id}/decline`, {})).statusCode).toBe(400);
    expect(
      (await support.post(`/api/v1/admin/loans/${loan.id}/decline`, { reason: 'No' })).statusCode,
    ).toBe(403);
    const declined = await admin.post(`/api/v1/admin/loans/${loan.id}/decline`, {
      reason: 'Income too low for this amount',
    });
    expect(declined.json()).toMatchObject({
      status: 'declined',
      decisionReason: 'Income too low for this amount',
    });
    const again = await admin.post(`/api/v1/admin/loans/${loan.id}/approve`, {});
    expect(again.statusCode).toBe(409);
    const seen = (await customer.client.get('/api/v1/loans')).json().loans[0];
    expect(seen).toMatchObject({
      status: 'declined',
      decisionReason: 'Income too low for this amount',
    });
    expect((await disburse(admin, loan.id)).statusCode).toBe(409);
  });
});

describe('disbursing', () => {
  it('refuses to disburse an approved loan above an eligibility lowered since, and says why', async () => {
    const customer = await borrower(app, admin, { eligibility: '1500.00' });
    const loan = (await applyForLoan(customer, { amount: '1000.00', months: 6 })).json();
    expect((await admin.post(`/api/v1/admin/loans/${loan.id}/approve`, {})).statusCode).toBe(200);
    expect((await setEligibility(support, customer.user.id, '100.00')).statusCode).toBe(200);
    const refused = await disburse(admin, loan.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({
      code: 'loan_above_eligibility',
      message:
        'This loan would take the customer above the approved loan eligibility of $100.00. Raise the eligibility first.',
    });
    expect(await walletBalance(customer)).toBe(0n);
    const seen = (await customer.client.get('/api/v1/loans')).json().loans[0];
    expect(seen).toMatchObject({ status: 'approved', disbursedAt: null });
    // Raised again, the same loan pays out.
    expect((await setEligibility(support, customer.user.id, '1000.00')).statusCode).toBe(200);
    expect((await disburse(admin, loan.id)).json()).toMatchObject({ status: 'disbursed' });
    expect(await walletBalance(customer)).toBe(100_000n);
  });

  it('refuses a pending loan, pays an approved one once and fixes its schedule', async () => {
    const customer = await borrower(app, admin);
    const loan = (await applyForLoan(customer, { amount: '1200.00', months: 12 })).json();
    const pending = await disburse(admin, loan.id);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.message).toBe('Only an approved loan can be disbursed.');
    await admin.post(`/api/v1/admin/loans/${loan.id}/approve`, {});
    const paid = await disburse(admin, loan.id);
    expect(paid.statusCode).toBe(200);
    const schedule = annuitySchedule(120_000n, 1200, 12);
    expect(paid.json()).toMatchObject({
      status: 'disbursed',
      outstandingPrincipalMinor: '120000',
      instalmentMinor: schedule.instalmentMinor.toString(),
    });
    expect(paid.json().instalments).toHaveLength(12);
    expect(await walletBalance(customer)).toBe(120_000n);
    expect((await disburse(admin, loan.id)).statusCode).toBe(409);
    const overview = (await customer.client.get('/api/v1/loans')).json();
    expect(overview.loanBalanceMinor).toBe('120000');
    const transactions = (await customer.client.get('/api/v1/wallet/transactions')).json();
    expect(JSON.stringify(transactions)).toContain('loan_disbursement');
  });

  it('waits for a second admin above the approval threshold', async () => {
    const customer = await borrower(app, admin, { eligibility: '20000.00' });
    const loan = (await applyForLoan(customer, { amount: '15000.00', months: 24 })).json();
    await admin.post(`/api/v1/admin/loans/${loan.id}/approve`, {});
    const requested = await disburse(admin, loan.id);
    expect(requested.json()).toMatchObject({ status: 'approved' });
    expect(requested.json().disbursementRequestedBy).not.toBeNull();
    expect(await walletBalance(customer)).toBe(0n);
    const sameAdmin = await disburse(admin, loan.id);
    expect(sameAdmin.statusCode).toBe(403);
    const checked = await disburse(secondAdmin, loan.id);
    expect(checked.json()).toMatchObject({ status: 'disbursed' });
    expect(await walletBalance(customer)).toBe(1_500_000n);
  });

  it('answers 404 for a loan that does not exist', async () => {
    const response = await disburse(admin, '0190d0a0-0000-7000-8000-000000000000');
    expect(response.statusCode).toBe(404);
  });
});

describe('repaying', () => {
  let customer: TestCustomer;
  let loanId: string;

  beforeAll(async () => {
    customer = await borrower(app, admin);
    loanId = (await disbursedLoan(admin, customer, { amount: '1200.00', months: 12 })).id;
  });

  it('refuses zero, more than the payoff, and another customer', async () => {
    expect((await repay(customer, loanId, '0')).statusCode).toBe(400);
    const tooMuch = await repay(customer, loanId, '1300.00');
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toContain('payoff amount');
    const other = await createCustomer(app, { level: 2, balance: '100.00' });
    expect((await repay(other, loanId, '10.00')).statusCode).toBe(404);
    const otherSwitch = await other.client.request('PUT', `/api/v1/loans/${loanId}/auto-repay`, {
      isAutoRepayOn: false,
    });
    expect(otherSwitch.statusCode).toBe(404);
  });

  it('charges only interest accrued and shortens the schedule when paying ahead', async () => {
    const paid = await repay(customer, loanId, '500.00');
    expect(paid.statusCode).toBe(201);
    const loan = paid.json();
    const first = annuitySchedule(120_000n, 1200, 12).lines[0];
    // On the day of disbursement no interest has accrued: all of it is principal, recorded
    // on the first instalment, whose period's interest falls due on its due date.
    expect(loan.repayments[0]).toMatchObject({
      amountMinor: '50000',
      interestMinor: '0',
      isAutomatic: false,
    });
    expect(loan.instalments[0]).toMatchObject({
      principalMinor: '50000',
      interestMinor: String(first?.interestMinor),
      paidMinor: '50000',
      status: 'upcoming',
    });
    expect(loan.instalments.length).toBeLessThan(12);
    expect(loan.outstandingPrincipalMinor).toBe('70000');
    expect(await walletBalance(customer)).toBe(70_000n);
  });

  it('refuses a frozen account with the reason', async () => {
    await db.query(
      "UPDATE users SET frozen_at = now(), frozen_reason = 'Card lost' WHERE id = $1",
      [customer.user.id],
    );
    const refused = await repay(customer, loanId, '10.00');
    await db.query('UPDATE users SET frozen_at = NULL, frozen_reason = NULL WHERE id = $1', [
      customer.user.id,
    ]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(
      'Transactions are disabled on your account: Card lost. Contact support to have them re-enabled.',
    );
  });

  it('pays off to repaid, principal to receivables and interest to income', async () => {
    await app.ledger.post({
      kind: 'deposit',
      memo: 'top up',
      lines: [
        {
          accountId: await app.ledger.systemAccount('settlement', usd),
          amountMinor: -100_000n,
        },
        { accountId: customer.wallet.id, amountMinor: 100_000n },
      ],
    });
    const before = (await customer.client.get('/api/v1/loans')).json().loans[0];
    const payoff = BigInt(before.payoffMinor);
    const paid = await repay(customer, loanId, toDecimalString(payoff, usd));
    expect(paid.json()).toMatchObject({ status: 'repaid', outstandingPrincipalMinor: '0' });
    const overview = (await customer.client.get('/api/v1/loans')).json();
    expect(overview.loanBalanceMinor).toBe('0');
    const interest = paid
      .json()
      .repayments.reduce(
        (sum: bigint, r: { interestMinor: string }) => sum + BigInt(r.interestMinor),
        0n,
      );
    const total = paid
      .json()
      .repayments.reduce(
        (sum: bigint, r: { amountMinor: string }) => sum + BigInt(r.amountMinor),
        0n,
      );
    expect(total).toBe(120_000n + interest);
    expect((await repay(customer, loanId, '1.00')).statusCode).toBe(409);
  });

  it('asks for a step-up code at or above the Quick Pay threshold', async () => {
    const rich = await borrower(app, admin, { balance: '5000.00' });
    const loan = await disbursedLoan(admin, rich, { amount: '3000.00', months: 6 });
    const withoutCode = await repay(rich, loan.id, '1000.00');
    expect(withoutCode.statusCode).toBe(400);
    expect(withoutCode.json().error.code).toBe('step_up_required');
    const challenge = await rich.client.post('/api/v1/step-up/challenges', {
      purpose: 'loan_repayment',
      loanId: loan.id,
      amount: '1000.00',
    });
    expect(challenge.statusCode).toBe(200);
    const code = await lastStepUpCode(app, rich.body.email);
    const paid = await repay(rich, loan.id, '1000.00', { stepUpCode: code });
    expect(paid.statusCode).toBe(201);
  });
});

describe('automatic collection', () => {
  it('collects a due instalment on its due date, once, and tells a short wallet what is owed', async () => {
    const customer = await borrower(app, admin);
    const loan = await disbursedLoan(admin, customer, { amount: '1000.00', months: 3 });
    const instalmentMinor = BigInt(loan.instalmentMinor ?? '0');
    const dueAt = new Date(`${loan.instalments[0]?.dueOn}T12:00:00Z`);
    expect(await app.jobs.runDue(new Date(dueAt.getTime() - dayMs))).toContain('loan-collection');
    expect(await walletBalance(customer)).toBe(100_000n);
    await db.query("UPDATE scheduled_jobs SET next_run_at = $1 WHERE name = 'loan-collection'", [
      dueAt,
    ]);
    await app.jobs.runDue(dueAt);
    expect(await walletBalance(customer)).toBe(100_000n - instalmentMinor);
    // The same run again, as a second instance would try it: nothing more is taken.
    await app.jobs.runDue(dueAt);
    expect(await walletBalance(customer)).toBe(100_000n - instalmentMinor);

    await app.ledger.post({
      kind: 'adjustment',
      memo: 'spent elsewhere',
      lines: [
        { accountId: customer.wallet.id, amountMinor: -(100_000n - instalmentMinor - 5_000n) },
        {
          accountId: await app.ledger.systemAccount('settlement', usd),
          amountMinor: 100_000n - instalmentMinor - 5_000n,
        },
      ],
    });
    const secondDue = new Date(`${loan.instalments[1]?.dueOn}T12:00:00Z`);
    await db.query("UPDATE scheduled_jobs SET next_run_at = $1 WHERE name = 'loan-collection'", [
      secondDue,
    ]);
    await app.jobs.runDue(secondDue);
    expect(await walletBalance(customer)).toBe(0n);
    const notices = await db.query<{ text: string }>(
      "SELECT text FROM notifications WHERE user_id = $1 AND kind = 'loan_collection_short'",
      [customer.user.id],
    );
    expect(notices.rows).toHaveLength(1);
    expect(notices.rows[0]?.text).toContain('We collected $50.00');
  });

  it('leaves a loan alone when the customer switched automatic repayment off', async () => {
    const customer = await borrower(app, admin);
    const loan = await disbursedLoan(admin, customer, { amount: '600.00', months: 3 });
    const off = await customer.client.request('PUT', `/api/v1/loans/${loan.id}/auto-repay`, {
      isAutoRepayOn: false,
    });
    expect(off.json().isAutoRepayOn).toBe(false);
    const dueAt = new Date(`${loan.instalments[0]?.dueOn}T12:00:00Z`);
    await db.query("UPDATE scheduled_jobs SET next_run_at = $1 WHERE name = 'loan-collection'", [
      dueAt,
    ]);
    await app.jobs.runDue(new Date(dueAt.getTime() + dayMs));
    expect(await walletBalance(customer)).toBe(60_000n);
  });
});

describe('the staff view', () => {
  it('shows a customer loans, balance and eligibility; customers cannot reach it', async () => {
    const customer = await borrower(app, admin);
    await disbursedLoan(admin, customer, { amount: '300.00', months: 3 });
    const view = await support.get(`/api/v1/admin/users/${customer.user.id}/loans`);
    expect(view.json()).toMatchObject({ loanBalanceMinor: '30000' });
    const customerPage = await support.get(`/api/v1/admin/users/${customer.user.id}`);
    expect(customerPage.json().wallet).toMatchObject({ loanBalanceMinor: '30000' });
    expect(view.json().loans[0].instalments).toHaveLength(3);
    expect(
      (await customer.client.get(`/api/v1/admin/users/${customer.user.id}/loans`)).statusCode,
    ).toBe(404);
  });
});
