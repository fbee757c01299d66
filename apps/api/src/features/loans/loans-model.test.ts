// A model test of loans: random sequences of repayments (early, partial, over several due
// dates), automatic collections and the passing of time, on both databases. After every
// step the books must agree with the loans: what they owe is the receivable account's
// balance, the interest they paid is the income account's, and the ledger balances.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { utcDate } from '@coffer/contracts/loan-schedule';
import { defaultLoanTermsJson } from '@coffer/contracts/loans';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import type { TestCustomer } from '../../../test/customers.ts';
import { deposit } from '../../../test/factories.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import { borrower, disbursedLoan } from '../../../test/loans.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { instalmentsOf } from './queries.ts';
import { collectDueInstalments, repayLoan } from './repayment.ts';
import { positionOf } from './repayment-plan.ts';
import type { LoanDeps } from './shared.ts';

let app: FastifyInstance;
let admin: TestClient;
let deps: LoanDeps;
const usd = toCurrencyCode('USD');
const dayMs = 86_400_000;

useTestApp(
  async (opened) => {
    ({ app } = opened);
    admin = (await staffClient(app, 'admin')).client;
    deps = { db: app.db, ledger: app.ledger, config: app.config };
  },
  {
    // One admin sets eligibility and disburses for every generated case, far beyond a
    // person's pace and day: the per-person limit and the daily approval total are lifted.
    env: {
      COFFER_LOAN_TERMS: defaultLoanTermsJson,
      COFFER_MONEY_REQUESTS_PER_MINUTE: '1000000',
      COFFER_FOUR_EYES_DAILY_TOTAL: '{"USD":"100000000.00"}',
    },
  },
);

const step = fc.oneof(
  fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 45 }) }),
  fc.record({ kind: fc.constant('repay' as const), percent: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('collect' as const) }),
  fc.record({
    kind: fc.constant('top-up' as const),
    amountMinor: fc.bigInt({ min: 1n, max: 50_000n }),
  }),
);

type LoanFacts = {
  outstanding_principal_minor: bigint;
  amount_minor: bigint;
  status: string;
  repaid_principal_minor: bigint;
  repaid_interest_minor: bigint;
  repaid_minor: bigint;
  charged_interest_minor: bigint;
  schedule_principal_owed_minor: bigint;
  schedule_principal_minor: bigint;
};

async function checkBooks(accounts: { receivableId: AccountId; incomeId: AccountId }) {
  const loans = await app.db.query<LoanFacts>(
    `SELECT l.outstanding_principal_minor, l.amount_minor, l.status,
            (SELECT coalesce(sum(principal_minor), 0)::bigint FROM loan_repayments r WHERE r.loan_id = l.id) AS repaid_principal_minor,
            (SELECT coalesce(sum(interest_minor), 0)::bigint FROM loan_repayments r WHERE r.loan_id = l.id) AS repaid_interest_minor,
            (SELECT coalesce(sum(amount_minor), 0)::bigint FROM loan_repayments r WHERE r.loan_id = l.id) AS repaid_minor,
            (SELECT coalesce(sum(interest_paid_minor), 0)::bigint FROM loan_instalments i WHERE i.loan_id = l.id) AS charged_interest_minor,
            (SELECT coalesce(sum(principal_minor - principal_paid_minor), 0)::bigint FROM loan_instalments i WHERE i.loan_id = l.id) AS schedule_principal_owed_minor,
            (SELECT coalesce(sum(principal_minor), 0)::bigint FROM loan_instalments i WHERE i.loan_id = l.id) AS schedule_principal_minor
       FROM loans l WHERE l.status IN ('disbursed', 'repaid') AND l.currency = 'USD'`,
  );
  let owedMinor = 0n;
  let interestMinor = 0n;
  for (const loan of loans.rows) {
    expect(loan.outstanding_principal_minor).toBe(loan.schedule_principal_owed_minor);
    // Every unit of principal is on one instalment, paid or not: paying ahead moves none out.
    expect(loan.schedule_principal_minor).toBe(loan.amount_minor);
    expect(loan.repaid_principal_minor).toBe(loan.amount_minor - loan.outstanding_principal_minor);
    expect(loan.repaid_minor).toBe(loan.repaid_principal_minor + loan.charged_interest_minor);
    expect(loan.repaid_interest_minor).toBe(loan.charged_interest_minor);
    if (loan.status === 'repaid') {
      expect(loan.outstanding_principal_minor).toBe(0n);
      expect(loan.repaid_minor).toBe(loan.amount_minor + loan.charged_interest_minor);
    }
    owedMinor += loan.outstanding_principal_minor;
    interestMinor += loan.repaid_interest_minor;
  }
  expect((await app.ledger.balance(accounts.receivableId)).balanceMinor).toBe(-owedMinor);
  expect((await app.ledger.balance(accounts.incomeId)).balanceMinor).toBe(interestMinor);
  await app.ledger.assertInvariants();
}

/** Repays `percent` of today's payoff (rounded up), or what the wallet holds if less. */
async function repayShare(customer: TestCustomer, loanId: string, percent: number, now: Date) {
  const found = await app.db.query<{
    status: string;
    instalment_minor: bigint;
    disbursed_on: string;
  }>('SELECT status, instalment_minor, disbursed_on::text FROM loans WHERE id = $1', [loanId]);
  const row = found.rows[0];
  if (row?.status !== 'disbursed') return;
  const schedule = (await instalmentsOf(app.db, [loanId])).map((line) => ({
    number: line.number,
    dueOn: line.due_on,
    principalMinor: line.principal_minor,
    interestMinor: line.interest_minor,
    principalPaidMinor: line.principal_paid_minor,
    interestPaidMinor: line.interest_paid_minor,
  }));
  const { payoffMinor } = positionOf(
    { annualRateBp: 1200, instalmentMinor: row.instalment_minor, disbursedOn: row.disbursed_on },
    schedule,
    utcDate(now),
  );
  const { availableMinor } = await app.ledger.balance(customer.wallet.id);
  const wantedMinor = (payoffMinor * BigInt(percent) + 99n) / 100n;
  const repaidMinor = wantedMinor < availableMinor ? wantedMinor : availableMinor;
  if (repaidMinor <= 0n) return;
  await app.db.transaction((tx) =>
    repayLoan(
      deps,
      tx,
      {
        userId: customer.user.id,
        loanId,
        amountMinor: repaidMinor,
        accounts: accountsOf(),
        proof: null,
      },
      now,
    ),
  );
}

let loanAccounts: { receivableId: AccountId; incomeId: AccountId } | undefined;
function accountsOf() {
  if (!loanAccounts) throw new Error('accounts are looked up first');
  return loanAccounts;
}

it('keeps the loans and the ledger in step through any sequence of repayments and collections', async () => {
  loanAccounts = {
    receivableId: await app.ledger.systemAccount('loan_receivable', usd),
    incomeId: await app.ledger.systemAccount('interest_income', usd),
  };
  const accounts = loanAccounts;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 12 }),
      fc.bigInt({ min: 10_000n, max: 500_000n }),
      fc.array(step, { minLength: 1, maxLength: 14 }),
      async (months, amountMinor, steps) => {
        const customer = await borrower(app, admin, { eligibility: '10000.00' });
        const amount = `${amountMinor / 100n}.${String(amountMinor % 100n).padStart(2, '0')}`;
        const loan = await disbursedLoan(admin, customer, { amount, months });
        let now = new Date();
        for (const action of steps) {
          if (action.kind === 'advance') now = new Date(now.getTime() + action.days * dayMs);
          if (action.kind === 'top-up') {
            await deposit(app.ledger, customer.wallet.id, action.amountMinor, usd);
          }
          if (action.kind === 'collect') await collectDueInstalments(deps, now);
          if (action.kind === 'repay') await repayShare(customer, loan.id, action.percent, now);
          await checkBooks(accounts);
        }
        // Whatever happened, paying the payoff at the end closes the loan.
        await deposit(app.ledger, customer.wallet.id, 1_000_000n, usd);
        await repayShare(customer, loan.id, 100, now);
        await checkBooks(accounts);
        const closed = await app.db.query('SELECT status FROM loans WHERE id = $1', [loan.id]);
        expect(closed.rows).toEqual([{ status: 'repaid' }]);
      },
    ),
    { numRuns: 12 },
  );
});
