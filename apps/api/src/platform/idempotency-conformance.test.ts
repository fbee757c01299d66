// The idempotency rules of docs/IDEMPOTENCY.md, checked on every money route: the routes
// that declare `config.isIdempotent`, found from the app itself. A money route without an
// example here fails the suite, so no new one ships unchecked.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { bulkCsv, uploadBulkFile } from '../../test/bulk-payments.ts';
import { createCustomer, type TestCustomer } from '../../test/customers.ts';
import { newIdempotencyKey, staffClient, type TestClient } from '../../test/http.ts';
import { applyForLoan, borrower, disbursedLoan } from '../../test/loans.ts';
import { lastStepUpCode, payoutChallenge } from '../../test/payouts.ts';
import type { Database } from '../db/client.ts';
import { sweepOldRows } from './housekeeping.ts';
import { idempotencyKeyTtlMs } from './idempotency.ts';

let app: FastifyInstance;
let db: Database;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  // Sandbox mode: the test-money route exists only there. The bulk payer is off, so a
  // confirmed file's lines are not paid behind the counts of effects().
  { env: { COFFER_SANDBOX: '1', COFFER_BULK_PAYER: '0' }, checksAfterEach: 'money-out' },
);

/** One call of a money route: who makes it, how (POST unless said), where, with what. */
type Call = {
  client: TestClient;
  method?: 'PUT' | 'DELETE';
  url: string;
  body: Record<string, unknown>;
};
/**
 * A fresh example of a money route: a call that succeeds, the same call with a different
 * body (or, for a route whose body is only its step-up code, another resource in the
 * path: `changedUrl`), and the caller's twin (another person allowed to call it) with
 * their own call.
 */
type Example = {
  call: Call;
  changedBody: Record<string, unknown>;
  changedUrl?: string;
  otherCaller: Call;
};

/** A customer with money, and one to pay. */
async function payerAndPayee() {
  return {
    payer: await createCustomer(app, { balance: '500.00' }),
    payee: await createCustomer(app),
  };
}

async function payoutBody(customer: Awaited<ReturnType<typeof createCustomer>>, amount: string) {
  expect((await payoutChallenge(customer, amount)).statusCode).toBe(200);
  const stepUpCode = await lastStepUpCode(app, customer.body.email);
  return {
    method: 'bank',
    holderName: 'Ada Lovelace',
    bankName: 'First Test Bank',
    accountNumber: '12345678',
    amount,
    stepUpCode,
  };
}

/** A new payee for `customer`, with the code the step-up emailed for it. */
async function payeeBody(customer: Awaited<ReturnType<typeof createCustomer>>) {
  const target = { kind: 'bill', category: 'water', billerReference: 'W-42' };
  const challenge = await customer.client.post('/api/v1/step-up/challenges', {
    purpose: 'payee',
    target,
  });
  expect(challenge.statusCode, challenge.body).toBe(200);
  const stepUpCode = await lastStepUpCode(app, customer.body.email);
  return { nickname: 'Water', target, stepUpCode };
}

/** The confirm of a checked bulk payment file of `customer`, with its code. */
async function bulkConfirmCall(customer: TestCustomer, payee: TestCustomer): Promise<Call> {
  const uploaded = await uploadBulkFile(customer, bulkCsv([`${payee.wallet.number},1.00,x`]));
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const id: string = uploaded.json().id;
  const challenge = await customer.client.post('/api/v1/step-up/challenges', {
    purpose: 'bulk_payment',
    bulkPaymentId: id,
  });
  expect(challenge.statusCode, challenge.body).toBe(200);
  const stepUpCode = await lastStepUpCode(app, customer.body.email);
  return {
    client: customer.client,
    url: `/api/v1/bulk-payments/${id}/confirm`,
    body: { stepUpCode },
  };
}

async function investigatedDispute(support: TestClient): Promise<string> {
  const customer = await createCustomer(app);
  const filed = await customer.client.post('/api/v1/disputes', {
    kind: 'general',
    amount: '25.00',
    recipientAccountNumber: '1234567890',
    problemType: 'other',
    description: 'The payment never arrived.',
  });
  expect(filed.statusCode).toBe(201);
  const id: string = filed.json().id;
  await support.post(`/api/v1/admin/disputes/${id}/investigate`, {});
  return id;
}

const examples: Record<string, () => Promise<Example>> = {
  'POST /api/v1/transfers': async () => {
    const { payer, payee } = await payerAndPayee();
    const other = await payerAndPayee();
    const body = { recipient: payee.wallet.number, amount: '1.00' };
    return {
      call: { client: payer.client, url: '/api/v1/transfers', body },
      changedBody: { ...body, amount: '2.00' },
      otherCaller: { client: other.payer.client, url: '/api/v1/transfers', body },
    };
  },
  'POST /api/v1/bill-payments': async () => {
    const payer = await createCustomer(app, { balance: '500.00' });
    const other = await createCustomer(app, { balance: '500.00' });
    const body = { category: 'electricity', billerReference: '12345', amount: '4.20' };
    return {
      call: { client: payer.client, url: '/api/v1/bill-payments', body },
      changedBody: { ...body, amount: '4.21' },
      otherCaller: { client: other.client, url: '/api/v1/bill-payments', body },
    };
  },
  'POST /api/v1/payees': async () => {
    const customer = await createCustomer(app);
    const other = await createCustomer(app);
    const body = await payeeBody(customer);
    return {
      call: { client: customer.client, url: '/api/v1/payees', body },
      changedBody: { ...body, nickname: 'Water bill' },
      otherCaller: { client: other.client, url: '/api/v1/payees', body: await payeeBody(other) },
    };
  },
  'POST /api/v1/bulk-payments/:bulkPaymentId/confirm': async () => {
    // Each file pays another customer, found by account number.
    const [payer, other, payee] = await Promise.all([
      createCustomer(app, { balance: '50.00' }),
      createCustomer(app, { balance: '50.00' }),
      createCustomer(app),
    ]);
    // Asking for a code ends her earlier one: the file that is only sent to be refused first.
    const { url: changedUrl } = await bulkConfirmCall(payer, payee);
    const call = await bulkConfirmCall(payer, payee);
    return {
      call,
      // The body is only the code: the same key on another file of hers is another request.
      changedBody: call.body,
      changedUrl,
      otherCaller: await bulkConfirmCall(other, payee),
    };
  },
  'POST /api/v1/payouts': async () => {
    const payer = await createCustomer(app, { balance: '500.00', level: 2 });
    const other = await createCustomer(app, { balance: '500.00', level: 2 });
    const body = await payoutBody(payer, '3.00');
    return {
      call: { client: payer.client, url: '/api/v1/payouts', body },
      changedBody: { ...body, amount: '3.01' },
      otherCaller: {
        client: other.client,
        url: '/api/v1/payouts',
        body: await payoutBody(other, '3.00'),
      },
    };
  },
  'POST /api/v1/wallet/test-money': async () => {
    const customer = await createCustomer(app);
    const other = await createCustomer(app);
    const body = { amount: '5.00' };
    return {
      call: { client: customer.client, url: '/api/v1/wallet/test-money', body },
      changedBody: { amount: '6.00' },
      otherCaller: { client: other.client, url: '/api/v1/wallet/test-money', body },
    };
  },
  'POST /api/v1/cards': async () => {
    // The fee (USD 100.00 by default) is held at request; one open card per customer.
    const customer = await createCustomer(app, { balance: '500.00', level: 2 });
    const other = await createCustomer(app, { balance: '500.00', level: 2 });
    const body = { confirmedFeeMinor: '10000' };
    return {
      call: { client: customer.client, url: '/api/v1/cards', body },
      changedBody: { confirmedFeeMinor: '9999' },
      otherCaller: { client: other.client, url: '/api/v1/cards', body },
    };
  },
  'POST /api/v1/loans/:loanId/repayments': async () => {
    // Below the step-up threshold; a 600.00 loan leaves room for every repayment here.
    const [call, otherCaller] = await Promise.all([loanRepayment(), loanRepayment()]);
    return { call, changedBody: { amount: '2.00' }, otherCaller };
  },
  'POST /api/v1/admin/loans/:loanId/disburse': async () => {
    const body = { reason: 'Paid out' };
    const call = await loanDisbursement(body);
    return {
      call,
      changedBody: { reason: 'Paid out today' },
      otherCaller: await loanDisbursement(body),
    };
  },
  'POST /api/v1/admin/users/:userId/deposits': async () => staffMoneyRequest('deposits'),
  'POST /api/v1/admin/users/:userId/adjustments': async () => staffMoneyRequest('adjustments'),
  'POST /api/v1/admin/disputes/:disputeId/resolve': async () => {
    const support = await staffClient(app, 'support');
    const otherSupport = await staffClient(app, 'support');
    const body = { note: 'Refunded in full.', refundAmount: '25.00' };
    return {
      call: {
        client: support.client,
        url: `/api/v1/admin/disputes/${await investigatedDispute(support.client)}/resolve`,
        body,
      },
      changedBody: { ...body, refundAmount: '24.00' },
      otherCaller: {
        client: otherSupport.client,
        url: `/api/v1/admin/disputes/${await investigatedDispute(otherSupport.client)}/resolve`,
        body,
      },
    };
  },
  'PUT /api/v1/admin/exchange/markups/:pair': async () => {
    const call = await markupChange('EUR-USD');
    return {
      call,
      changedBody: { ...call.body, markupBp: 91 },
      otherCaller: await markupChange('EUR-USD'),
    };
  },
  'DELETE /api/v1/admin/exchange/markups/:pair': async () => {
    const call = await markupReset('EUR-JPY');
    return {
      call,
      changedBody: { reason: 'Another reason' },
      otherCaller: await markupReset('GBP-JPY'),
    };
  },
};

/** An admin's change of a pair's exchange markup: not money moved, but what every customer pays. */
async function markupChange(pair: string): Promise<Call> {
  const { client } = await staffClient(app, 'admin');
  const url = `/api/v1/admin/exchange/markups/${pair}`;
  return { client, method: 'PUT', url, body: { markupBp: 90, reason: 'Wider spread' } };
}

/** An admin's return of a pair to its configured markup, after setting one to return from. */
async function markupReset(pair: string): Promise<Call> {
  const change = await markupChange(pair);
  const set = await send(change, newIdempotencyKey());
  expect(set.statusCode, set.body).toBe(200);
  return { ...change, method: 'DELETE', body: { reason: 'Back to the configured one' } };
}

/** A borrower's repayment of 1.00 on a disbursed loan of their own. */
async function loanRepayment(): Promise<Call> {
  const { client: admin } = await staffClient(app, 'admin');
  const customer = await borrower(app, admin, { balance: '500.00' });
  const loan = await disbursedLoan(admin, customer, { amount: '600.00', months: 6 });
  return {
    client: customer.client,
    url: `/api/v1/loans/${loan.id}/repayments`,
    body: { amount: '1.00' },
  };
}

/** A fresh admin's disbursement of an approved loan below the approval threshold. */
async function loanDisbursement(body: Record<string, unknown>): Promise<Call> {
  const { client: admin } = await staffClient(app, 'admin');
  const customer = await borrower(app, admin);
  const loanId: string = (await applyForLoan(customer, { amount: '500.00', months: 6 })).json().id;
  expect((await admin.post(`/api/v1/admin/loans/${loanId}/approve`, {})).statusCode).toBe(200);
  return { client: admin, url: `/api/v1/admin/loans/${loanId}/disburse`, body };
}

async function staffMoneyRequest(kind: 'deposits' | 'adjustments'): Promise<Example> {
  const customer = await createCustomer(app, { balance: '100.00' });
  const support = await staffClient(app, 'support');
  const otherSupport = await staffClient(app, 'support');
  const url = `/api/v1/admin/users/${customer.user.id}/${kind}`;
  const body = { amount: '10.00', reason: 'Branch cash deposit' };
  return {
    call: { client: support.client, url, body },
    changedBody: { ...body, amount: '11.00' },
    otherCaller: { client: otherSupport.client, url, body },
  };
}

function send(call: Call, key: string | undefined, body = call.body) {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
  return call.client.request(call.method ?? 'POST', call.url, body, headers);
}

/**
 * Everything a money route may leave behind, counted: a request's effect is a change in
 * one of these, and a replay changes none of them.
 */
async function effects(): Promise<string> {
  const tables = [
    'journal_entries',
    'holds',
    'money_requests',
    'payouts',
    'bill_payments',
    'transfers',
    'payees',
    'audit_events',
    'notifications',
  ];
  const counted = await db.query<Record<string, string>>(
    `SELECT ${tables.map((table) => `(SELECT count(*)::int FROM ${table}) AS ${table}`).join(', ')},
            -- A confirmed bulk payment file is a row that changed, not one more row.
            (SELECT count(*)::int FROM bulk_payments WHERE status <> 'checked') AS confirmed_bulk_payments`,
  );
  return JSON.stringify(counted.rows[0]);
}

function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().error.code).toBe(code);
}

const moneyRoutes = () => app.registeredRoutes.filter((route) => route.config?.isIdempotent);

describe('idempotency conformance', () => {
  it('binds a key to the resource in its path: the same key and body for another customer is refused', async () => {
    const { call: first } = await staffMoneyRequest('deposits');
    const other = await createCustomer(app);
    const key = newIdempotencyKey();
    expect((await send(first, key)).statusCode).toBe(201);
    const before = await effects();
    const elsewhere = { ...first, url: `/api/v1/admin/users/${other.user.id}/deposits` };
    // Replaying the first customer's answer would tell staff the second deposit was made.
    expectError(await send(elsewhere, key), 422, 'idempotency_key_reused');
    expect(await effects()).toBe(before);
  });

  it('has an example for every money route, and none for a route that is not one', () => {
    const declared = moneyRoutes().map((route) => `${route.method} ${route.url}`);
    expect(declared.length).toBeGreaterThanOrEqual(Object.keys(examples).length);
    expect(declared.filter((route) => !(route in examples))).toEqual([]);
    expect(Object.keys(examples).filter((route) => !declared.includes(route))).toEqual([]);
  });

  for (const [route, example] of Object.entries(examples)) {
    describe(route, () => {
      it('refuses a request without a key (or with an unusable one) and changes nothing', async () => {
        const { call } = await example();
        const before = await effects();
        expectError(await send(call, undefined), 400, 'idempotency_key_required');
        expectError(await send(call, ''), 400, 'idempotency_key_required');
        expectError(await send(call, 'x'.repeat(256)), 400, 'idempotency_key_required');
        expect(await effects()).toBe(before);
      });

      it('replays the first answer to a retry, refuses the key with another body, and acts once', async () => {
        const { call, changedBody, changedUrl } = await example();
        const key = newIdempotencyKey();
        const before = await effects();
        const first = await send(call, key);
        expect(first.statusCode, first.body).toBeGreaterThanOrEqual(200);
        expect(first.statusCode, first.body).toBeLessThan(300);
        expect(first.headers['idempotent-replayed']).toBeUndefined();
        const afterFirst = await effects();
        expect(afterFirst).not.toBe(before);

        const retry = await send(call, key);
        expect(retry.statusCode).toBe(first.statusCode);
        expect(retry.json()).toEqual(first.json());
        expect(retry.headers['idempotent-replayed']).toBe('true');
        const changed = { ...call, url: changedUrl ?? call.url };
        expectError(await send(changed, key, changedBody), 422, 'idempotency_key_reused');
        expect(await effects()).toBe(afterFirst);
      });

      it('scopes keys to the caller: another caller’s same key is their own request', async () => {
        const { call, otherCaller } = await example();
        const key = newIdempotencyKey();
        expect((await send(call, key)).headers['idempotent-replayed']).toBeUndefined();
        const before = await effects();
        const theirs = await send(otherCaller, key);
        expect(theirs.statusCode, theirs.body).toBeLessThan(300);
        expect(theirs.headers['idempotent-replayed']).toBeUndefined();
        expect(await effects()).not.toBe(before);
      });

      it('answers concurrent twins once: the second waits for the first and replays it', async () => {
        const { call } = await example();
        const key = newIdempotencyKey();
        const before = await effects();
        const [a, b] = await Promise.all([send(call, key), send(call, key)]);
        expect(a.statusCode, a.body).toBeLessThan(300);
        expect(b.statusCode).toBe(a.statusCode);
        expect(b.json()).toEqual(a.json());
        const replays = [a, b].filter((r) => r.headers['idempotent-replayed'] === 'true');
        expect(replays).toHaveLength(1);
        const afterTwins = await effects();
        // One effect: the same change as a single request makes.
        expect(await send(call, key)).toMatchObject({ statusCode: a.statusCode });
        expect(await effects()).toBe(afterTwins);
        expect(afterTwins).not.toBe(before);
      });

      it('keeps a key for 24 hours, then forgets it: the same key is a new request', async () => {
        const { call } = await example();
        const key = newIdempotencyKey();
        expect((await send(call, key)).statusCode).toBeLessThan(300);
        const almostADay = new Date(Date.now() + idempotencyKeyTtlMs - 60_000);
        await sweepOldRows(db, app.config.housekeeping, almostADay);
        expect((await send(call, key)).headers['idempotent-replayed']).toBe('true');
        const overADay = new Date(Date.now() + idempotencyKeyTtlMs + 60_000);
        await sweepOldRows(db, app.config.housekeeping, overADay);
        const anew = await send(call, key);
        expect(anew.headers['idempotent-replayed']).toBeUndefined();
      });
    });
  }
});
