// The loan in one flow (issue #31 item 2): the customer asks for an assessment from the
// loan page, staff answer it by setting the eligibility, the form starts from what the
// customer already gave, and approved loans wait in the queue's "to disburse" list. The
// races run on both databases; on PostgreSQL (a pool of connections) they truly overlap.
import { defaultLoanTermsJson } from '@coffer/contracts/loans';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { fourEyesStaff, type TestClient } from '../../../test/http.ts';
import { submitted } from '../../../test/kyc.ts';
import { applyForLoan, borrower, disburse, setEligibility } from '../../../test/loans.ts';
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
  { checksAfterEach: 'ledger', poolSize: 8, env: { COFFER_LOAN_TERMS: defaultLoanTermsJson } },
);

async function auditCount(userId: string, action: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM audit_events WHERE subject_user_id = $1 AND action = $2',
    [userId, action],
  );
  return found.rows[0]?.count ?? -1;
}

async function assessmentQueueIds(): Promise<string[]> {
  const queue = await support.get('/api/v1/admin/queues/loans/assessments');
  expect(queue.statusCode).toBe(200);
  return queue.json().items.map((item: { userId: string }) => item.userId);
}

function askForAssessment(customer: TestCustomer) {
  return customer.client.post('/api/v1/loans/assessment-request');
}

it('puts an assessment request in the loans queue until staff set the eligibility, then tells the customer', async () => {
  const customer = await createCustomer(app, { level: 2 });
  const asked = await askForAssessment(customer);
  expect(asked.statusCode).toBe(200);
  expect(asked.json()).toMatchObject({ eligibility: null });
  expect(asked.json().assessmentRequestedAt).not.toBeNull();
  expect(await assessmentQueueIds()).toContain(customer.user.id);
  const queued = (await support.get('/api/v1/admin/queues/loans/assessments'))
    .json()
    .items.find((item: { userId: string }) => item.userId === customer.user.id);
  expect(queued).toMatchObject({ currency: 'USD', eligibility: null });
  expect(await auditCount(customer.user.id, 'loan_assessment_requested')).toBe(1);

  expect((await setEligibility(support, customer.user.id, '3000.00')).statusCode).toBe(200);
  expect(await assessmentQueueIds()).not.toContain(customer.user.id);
  const overview = (await customer.client.get('/api/v1/loans')).json();
  expect(overview.assessmentRequestedAt).toBeNull();
  expect(overview.eligibility.amountMinor).toBe('300000');
  const bell = (await customer.client.get('/api/v1/notifications')).json();
  expect(bell.items.map((item: { text: string }) => item.text)).toContain(
    'Your approved loan eligibility is now $3,000.00: Salary slips checked',
  );

  // Asking again once assessed asks for another look; it is queued with what they have now.
  expect((await askForAssessment(customer)).statusCode).toBe(200);
  const again = (await support.get('/api/v1/admin/queues/loans/assessments'))
    .json()
    .items.find((item: { userId: string }) => item.userId === customer.user.id);
  expect(again.eligibility.amountMinor).toBe('300000');
  expect(await auditCount(customer.user.id, 'loan_assessment_requested')).toBe(2);
});

it('tells the customer why when staff decline the assessment, and lets them ask again', async () => {
  const customer = await createCustomer(app, { level: 2 });
  const path = `/api/v1/admin/users/${customer.user.id}/loan-assessment/decline`;
  expect((await support.post(path, { reason: 'No income yet' })).statusCode).toBe(409);
  await askForAssessment(customer);
  expect((await support.post(path, {})).statusCode).toBe(400);
  const declined = await support.post(path, { reason: 'No salary has reached this account yet' });
  expect(declined.statusCode).toBe(200);
  expect(await assessmentQueueIds()).not.toContain(customer.user.id);
  const overview = (await customer.client.get('/api/v1/loans')).json();
  expect(overview).toMatchObject({
    assessmentRequestedAt: null,
    assessmentDeclinedReason: 'No salary has reached this account yet',
    eligibility: null,
  });
  const bell = (await customer.client.get('/api/v1/notifications')).json();
  expect(bell.items[0].text).toBe(
    'We cannot offer you a loan at the moment: No salary has reached this account yet',
  );
  expect(await auditCount(customer.user.id, 'loan_assessment_declined')).toBe(1);
  const again = (await askForAssessment(customer)).json();
  expect(again).toMatchObject({ assessmentDeclinedReason: null });
  expect(again.assessmentRequestedAt).not.toBeNull();
});

it('refuses an assessment below level 2 or where loans are not offered, with the reason', async () => {
  const levelOne = await createCustomer(app, { level: 1 });
  const low = await askForAssessment(levelOne);
  expect(low.statusCode).toBe(403);
  expect(low.json().error.message).toBe('Reach level 2 to access loan services');
  const kuwait = await createCustomer(app, { level: 2, country: 'KW' });
  const notOffered = await askForAssessment(kuwait);
  expect(notOffered.json().error.code).toBe('loans_not_offered');
  expect(await assessmentQueueIds()).not.toContain(levelOne.user.id);
  expect(await assessmentQueueIds()).not.toContain(kuwait.user.id);
});

it('makes one assessment request of several sent at once', async () => {
  const customer = await createCustomer(app, { level: 2 });
  const answers = await Promise.all(Array.from({ length: 4 }, () => askForAssessment(customer)));
  expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
  expect(new Set(answers.map((answer) => answer.json().assessmentRequestedAt)).size).toBe(1);
  expect((await assessmentQueueIds()).filter((id) => id === customer.user.id)).toHaveLength(1);
  expect(await auditCount(customer.user.id, 'loan_assessment_requested')).toBe(1);
});

it('starts the application from the verification’s name and address and the profile’s phone, then the last application', async () => {
  const customer = await createCustomer(app, { level: 2 });
  expect((await customer.client.get('/api/v1/loans')).json().applicantDetails).toEqual({
    fullName: '',
    phone: '+14155552671',
    address: '',
  });
  await setEligibility(admin, customer.user.id, '5000.00');
  const applied = await applyForLoan(customer, {
    amount: '500.00',
    months: 6,
    fullName: 'Ada King',
    address: '2 New Road, Springfield',
  });
  expect(applied.statusCode).toBe(201);
  expect((await customer.client.get('/api/v1/loans')).json().applicantDetails).toEqual({
    fullName: 'Ada King',
    phone: '+14155552671',
    address: '2 New Road, Springfield',
  });
  // A verification, even one still under review, comes before the last application.
  await submitted(customer.client);
  expect((await customer.client.get('/api/v1/loans')).json().applicantDetails).toEqual({
    fullName: 'Greta Marie Walker',
    phone: '+14155552671',
    address: '1 Main Street, Springfield',
  });
});

it('keeps approved loans in the queue’s "to disburse" list until they are paid out', async () => {
  const customer = await borrower(app, admin);
  const applied = await applyForLoan(customer, { amount: '800.00', months: 4 });
  const loanId: string = applied.json().id;
  const toDisburse = async () =>
    (await support.get('/api/v1/admin/queues/loans/to-disburse'))
      .json()
      .items.map((loan: { id: string }) => loan.id);
  expect(await toDisburse()).not.toContain(loanId);
  expect((await admin.post(`/api/v1/admin/loans/${loanId}/approve`, {})).statusCode).toBe(200);
  expect(await toDisburse()).toContain(loanId);
  const queues = (await support.get('/api/v1/admin/queues')).json();
  expect(
    queues.items.find((item: { queue: string }) => item.queue === 'loans').openCount,
  ).toBeGreaterThanOrEqual(1);
  // Support asks; the loan waits, named with who asked, for an admin to pay it out.
  const asked = await disburse(support, loanId);
  expect(asked.json()).toMatchObject({ status: 'approved' });
  const waiting = (await support.get('/api/v1/admin/queues/loans/to-disburse'))
    .json()
    .items.find((loan: { id: string }) => loan.id === loanId);
  expect(waiting.disbursementRequestedBy).not.toBeNull();
  expect((await disburse(admin, loanId)).json()).toMatchObject({ status: 'disbursed' });
  expect(await toDisburse()).not.toContain(loanId);
});

it('pays a loan out once when two admins disburse it at once, and money is conserved', async () => {
  const customer = await borrower(app, admin);
  const applied = await applyForLoan(customer, { amount: '1000.00', months: 10 });
  const loanId: string = applied.json().id;
  await admin.post(`/api/v1/admin/loans/${loanId}/approve`, {});
  const balanceOf = async () => (await customer.client.get('/api/v1/wallet')).json();
  const before = await balanceOf();
  const answers = await Promise.all([
    disburse(admin, loanId),
    disburse(secondAdmin, loanId),
    disburse(admin, loanId),
  ]);
  const statuses = answers.map((answer) => answer.statusCode).sort();
  expect(statuses).toEqual([200, 409, 409]);
  const after = await balanceOf();
  expect(BigInt(after.balanceMinor) - BigInt(before.balanceMinor)).toBe(100_000n);
  const entries = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM journal_lines jl
       JOIN journal_entries je ON je.id = jl.entry_id
      WHERE je.kind = 'loan_disbursement' AND jl.account_id = (
        SELECT id FROM accounts WHERE owner_user_id = $1 AND kind = 'customer')`,
    [customer.user.id],
  );
  expect(entries.rows[0]?.count).toBe(1);
  expect(await auditCount(customer.user.id, 'loan_disbursed')).toBe(1);
});
