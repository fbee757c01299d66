// Loans under true concurrency (PostgreSQL only): a customer's repayment racing the
// automatic collection never takes more than is owed, two API instances running the
// job runner at once collect each instalment once, and an application racing the approval
// of the one before never takes the customer past the eligibility.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { defaultLoanTermsJson } from '@coffer/contracts/loans';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import { deposit } from '../../../test/factories.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { applyForLoan, borrower, disbursedLoan } from '../../../test/loans.ts';
import type { Database } from '../../db/client.ts';
import { collectDueInstalments, repayLoan } from './repayment.ts';
import type { LoanDeps } from './shared.ts';

const env = { COFFER_LOAN_TERMS: defaultLoanTermsJson };
const usd = toCurrencyCode('USD');
let app: FastifyInstance;
let db: Database;
let admin: TestClient;
let deps: LoanDeps;
const otherInstances: FastifyInstance[] = [];

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = (await staffClient(app, 'admin')).client;
    deps = { db, ledger: app.ledger, config: app.config };
  },
  { env, poolSize: 12, checksAfterEach: 'ledger' },
);

afterAll(async () => {
  for (const instance of otherInstances) await instance.close();
});

async function repaidOf(loanId: string) {
  const found = await db.query<{ count: number; total: bigint }>(
    'SELECT count(*)::int AS count, coalesce(sum(amount_minor), 0)::bigint AS total FROM loan_repayments WHERE loan_id = $1',
    [loanId],
  );
  return found.rows[0] ?? { count: -1, total: -1n };
}

it('never over-collects when repayments race the automatic collection', async () => {
  const customer = await borrower(app, admin);
  const loan = await disbursedLoan(admin, customer, { amount: '1000.00', months: 2 });
  const dueAt = new Date(`${loan.instalments[0]?.dueOn}T09:00:00Z`);
  const accounts = {
    receivableId: await app.ledger.systemAccount('loan_receivable', usd),
    incomeId: await app.ledger.systemAccount('interest_income', usd),
  };
  const instalmentMinor = BigInt(loan.instalmentMinor ?? '0');
  // Each repayment is the whole instalment; with the collection also due, most must fail.
  const results = await Promise.allSettled([
    ...Array.from({ length: 4 }, () =>
      db.transaction((tx) =>
        repayLoan(
          deps,
          tx,
          {
            userId: customer.user.id,
            loanId: loan.id,
            amountMinor: instalmentMinor,
            accounts,
            proof: null,
          },
          dueAt,
        ),
      ),
    ),
    collectDueInstalments(deps, dueAt),
    collectDueInstalments(deps, dueAt),
  ]);
  expect(results.filter((result) => result.status === 'fulfilled').length).toBeGreaterThan(0);
  const repaid = await repaidOf(loan.id);
  // At most the payoff of the whole loan (both instalments) can ever be taken.
  const payoffCapMinor = 100_000n + instalmentMinor * 2n;
  expect(repaid.total).toBeLessThanOrEqual(payoffCapMinor);
  const state = await db.query<{ outstanding: bigint; owed: bigint }>(
    `SELECT l.outstanding_principal_minor AS outstanding,
            (SELECT sum(principal_minor - principal_paid_minor)::bigint FROM loan_instalments WHERE loan_id = l.id) AS owed
       FROM loans l WHERE l.id = $1`,
    [loan.id],
  );
  expect(state.rows[0]?.outstanding).toBe(state.rows[0]?.owed ?? -1n);
  const wallet = await app.ledger.balance(customer.wallet.id);
  expect(wallet.balanceMinor).toBe(100_000n - repaid.total);
});

it('collects each instalment once with two instances running the job runner', async () => {
  const second = await buildTestApp(db, env);
  await second.ready();
  otherInstances.push(second);
  const customer = await borrower(app, admin);
  await deposit(app.ledger, customer.wallet.id, 50_000n, usd);
  const loan = await disbursedLoan(admin, customer, { amount: '600.00', months: 3 });
  const dueAt = new Date(`${loan.instalments[0]?.dueOn}T09:00:00Z`);
  await db.query('UPDATE scheduled_jobs SET next_run_at = $1', [dueAt]);
  const [first, other] = await Promise.all([app.jobs.runDue(dueAt), second.jobs.runDue(dueAt)]);
  const collections = [...(first ?? []), ...(other ?? [])].filter(
    (name) => name === 'loan-collection',
  );
  expect(collections).toHaveLength(1);
  // Even if the collection itself ran twice (a lease ran out), the loan row decides once.
  await Promise.all([collectDueInstalments(deps, dueAt), collectDueInstalments(deps, dueAt)]);
  const repaid = await repaidOf(loan.id);
  expect(repaid).toEqual({ count: 1, total: BigInt(loan.instalmentMinor ?? '0') });
});

it('lets one of two admins deciding at once win, and the other is told it is decided', async () => {
  const secondAdmin = (await staffClient(app, 'admin')).client;
  const customer = await borrower(app, admin);
  const applied = await customer.client.post('/api/v1/loans', {
    fullName: 'Ada Lovelace',
    phone: '+1 555 0100',
    address: '1 Analytical Way',
    monthlySalary: '4000.00',
    amount: '500.00',
    months: 6,
  });
  const loanId: string = applied.json().id;
  const [approved, declined] = await Promise.all([
    admin.post(`/api/v1/admin/loans/${loanId}/approve`, {}),
    secondAdmin.post(`/api/v1/admin/loans/${loanId}/decline`, { reason: 'Too soon' }),
  ]);
  expect([approved.statusCode, declined.statusCode].sort()).toEqual([200, 409]);
  const audit = await db.query(
    "SELECT action FROM audit_events WHERE action IN ('loan_approved', 'loan_declined') AND after->>'amountMinor' = '50000' AND subject_user_id = $1",
    [customer.user.id],
  );
  expect(audit.rows).toHaveLength(1);
});

/** Everything the eligibility covers: pending and approved amounts, principal still owed. */
async function committedToEligibility(userId: string): Promise<bigint> {
  const found = await db.query<{ total: bigint }>(
    `SELECT coalesce(sum(CASE WHEN status = 'disbursed' THEN outstanding_principal_minor
                              WHEN status IN ('pending', 'approved') THEN amount_minor
                              ELSE 0 END), 0)::bigint AS total
       FROM loans WHERE user_id = $1`,
    [userId],
  );
  return found.rows[0]?.total ?? -1n;
}

it('never lets an application sent during the approval of the last one pass the eligibility', async () => {
  const roundCount = 12;
  const overdrawn: string[] = [];
  for (let round = 0; round < roundCount; round += 1) {
    const customer = await borrower(app, admin, { eligibility: '1500.00' });
    const first = await applyForLoan(customer, { amount: '1000.00', months: 6 });
    expect(first.statusCode).toBe(201);
    const [approved, second] = await Promise.all([
      admin.post(`/api/v1/admin/loans/${first.json().id}/approve`, {}),
      applyForLoan(customer, { amount: '1000.00', months: 6 }),
    ]);
    expect(approved.statusCode).toBe(200);
    // Refused for the eligibility, or for the first application still pending: never a 500.
    expect([201, 400, 409]).toContain(second.statusCode);
    const committedMinor = await committedToEligibility(customer.user.id);
    if (committedMinor > 150_000n) overdrawn.push(`round ${round}: ${committedMinor}`);
  }
  expect(overdrawn).toEqual([]);
});
