// Loans for the tests of loans and of what uses them: a customer ready to borrow, and a
// loan taken through the real routes (apply, approve, disburse).
import type { Loan } from '@coffer/contracts/loans';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type CustomerOptions, createCustomer, type TestCustomer } from './customers.ts';
import { newIdempotencyKey, type TestClient } from './http.ts';

export const applicantDetails = {
  fullName: 'Ada Lovelace',
  phone: '+1 555 0100',
  address: '1 Analytical Way, London',
  monthlySalary: '4000.00',
};

/** A level-2 customer whose eligibility staff set to `eligibility`. */
export async function borrower(
  app: FastifyInstance,
  staff: TestClient,
  options: CustomerOptions & { eligibility?: string } = {},
): Promise<TestCustomer> {
  const customer = await createCustomer(app, { level: 2, ...options });
  const set = await setEligibility(staff, customer.user.id, options.eligibility ?? '20000.00');
  if (set.statusCode !== 200) throw new Error(`eligibility failed: ${set.body}`);
  return customer;
}

export function setEligibility(staff: TestClient, userId: string, amount: string) {
  return staff.request('PUT', `/api/v1/admin/users/${userId}/loan-eligibility`, {
    amount,
    reason: 'Salary slips checked',
  });
}

export function applyForLoan(
  customer: TestCustomer,
  application: { amount: string; months: number | string } & Partial<typeof applicantDetails>,
): Promise<LightMyRequestResponse> {
  return customer.client.post('/api/v1/loans', { ...applicantDetails, ...application });
}

export function disburse(admin: TestClient, loanId: string) {
  return admin.post(
    `/api/v1/admin/loans/${loanId}/disburse`,
    { reason: 'Paid out' },
    { 'idempotency-key': newIdempotencyKey() },
  );
}

/** A loan applied for, approved and disbursed through the routes. */
export async function disbursedLoan(
  admin: TestClient,
  customer: TestCustomer,
  application: { amount: string; months: number },
): Promise<Loan & { amountMinor: string }> {
  const applied = await applyForLoan(customer, application);
  if (applied.statusCode !== 201) throw new Error(`application failed: ${applied.body}`);
  const loanId: string = applied.json().id;
  const approved = await admin.post(`/api/v1/admin/loans/${loanId}/approve`, {});
  if (approved.statusCode !== 200) throw new Error(`approval failed: ${approved.body}`);
  const disbursed = await disburse(admin, loanId);
  if (disbursed.statusCode !== 200 || disbursed.json().status !== 'disbursed') {
    throw new Error(`disbursement failed: ${disbursed.body}`);
  }
  return disbursed.json();
}

export function repay(
  customer: TestCustomer,
  loanId: string,
  amount: string,
  extra: { stepUpCode?: string; idempotencyKey?: string } = {},
) {
  return customer.client.post(
    `/api/v1/loans/${loanId}/repayments`,
    { amount, ...(extra.stepUpCode ? { stepUpCode: extra.stepUpCode } : {}) },
    { 'idempotency-key': extra.idempotencyKey ?? newIdempotencyKey() },
  );
}
