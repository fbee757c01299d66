// Nothing a person types makes a 500: text the database cannot store, reasons too long for
// a memo and dates off the calendar are 400s in the standard error shape that write nothing.
import { moneyRequestReasonLengthMax } from '@coffer/contracts/admin';
import { errorBodySchema } from '@coffer/contracts/errors';
import { externalReferenceLengthMax, memoLengthMax } from '@coffer/contracts/ledger';
import { todayUtc } from '@coffer/contracts/statements';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.ts';
import { createCustomer } from '../test/customers.ts';
import { moneyRequest } from '../test/deposits.ts';
import { newIdempotencyKey, staffClient, strongPassword, TestClient } from '../test/http.ts';
import { emailedStepUpCode, requestPayout } from '../test/payouts.ts';
import { quickPay } from '../test/transfers.ts';
import type { Database } from './db/client.ts';
import { invalidTextMessage } from './platform/error-handler.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;
let secondAdmin: Awaited<ReturnType<typeof staffClient>>;
let support: Awaited<ReturnType<typeof staffClient>>;

const nulMessage = 'Remove the invisible control character (U+0000)';

// Euro payouts carry a fee here, so a payout's memo is as long as it gets.
useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
    secondAdmin = await staffClient(app, 'admin');
    support = await staffClient(app, 'support');
  },
  {
    env: { COFFER_PAYOUT_FEES: '{"EUR":"1.50"}' },
    // A route that hands text to the database unchecked, as a field that missed its schema would.
    beforeReady: (opened) => {
      opened.app.post(
        '/api/v1/test/unchecked-text',
        { config: { access: 'public' } },
        async (request) => {
          await opened.db.query('SELECT $1::text AS text', [
            (request.body as { text: string }).text,
          ]);
          return { isStored: true };
        },
      );
    },
  },
);
afterEach(async () => {
  expect(await app.ledger.checkInvariants()).toEqual([]);
});

/**
 * Every table's row count but the request counters', and the whole content of those a
 * refused request could change without adding a row (a balance, a freeze, a request's
 * status).
 */
async function databaseState(): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
  );
  const watchedContent = new Set(['users', 'account_balances', 'money_requests', 'payouts']);
  // Rate limits count every request, refused or not, in the database (ADR 017).
  const requestCounters = 'attempt_counters';
  const state: Record<string, string> = {};
  for (const { name } of tables.rows.filter((table) => table.name !== requestCounters)) {
    const found = await db.query<{ rows: number; digest: string | null }>(
      `SELECT count(*)::int AS rows, md5(string_agg(t::text, ',' ORDER BY t::text)) AS digest
         FROM "${name}" t`,
    );
    const row = found.rows[0];
    state[name] = `${row?.rows}${watchedContent.has(name) ? ` ${row?.digest}` : ''}`;
  }
  return state;
}

/** Sends a request that must be refused: a 400 naming `field`, and nothing written. */
async function expectRefused(
  send: () => Promise<LightMyRequestResponse>,
  field: string,
  message: string,
) {
  const before = await databaseState();
  const response = await send();
  expect(response.statusCode, response.body).toBe(400);
  const { error } = errorBodySchema.parse(response.json());
  expect(error).toEqual({ code: 'validation_failed', message, fields: { [field]: message } });
  expect(await databaseState()).toEqual(before);
}

async function memoOfEntry(entryId: string): Promise<string> {
  const found = await db.query<{ memo: string }>('SELECT memo FROM journal_entries WHERE id = $1', [
    entryId,
  ]);
  const memo = found.rows[0]?.memo;
  if (memo === undefined) throw new Error(`no entry ${entryId}`);
  return memo;
}

describe('text the database cannot store', () => {
  it('refuses a NUL in the login email or password', async () => {
    const client = new TestClient(app);
    await expectRefused(
      () => client.post('/api/v1/auth/login', { email: 'ada\u0000@example.com', password: 'x' }),
      'email',
      nulMessage,
    );
    await expectRefused(
      () =>
        client.post('/api/v1/auth/login', {
          email: 'ada@example.com',
          password: `${strongPassword}\u0000`,
        }),
      'password',
      nulMessage,
    );
  });

  it('refuses a NUL in a Quick Pay note, moving no money', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    await expectRefused(
      () =>
        quickPay(sender.client, {
          recipient: recipient.wallet.number,
          amount: '5.00',
          note: 'lunch\u0000',
        }),
      'note',
      nulMessage,
    );
    const sent = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '5.00',
      note: 'Déjeuner 🍜',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().note).toBe('Déjeuner 🍜');
  });

  it('refuses a NUL or another control character in the staff search', async () => {
    await expectRefused(
      () => admin.client.get('/api/v1/admin/users?search=ada%00'),
      'search',
      nulMessage,
    );
    // U+0085 (NEXT LINE), a C1 control, as UTF-8 in the query string.
    await expectRefused(
      () => admin.client.get('/api/v1/admin/users?search=ada%C2%85'),
      'search',
      'Remove the invisible control character (U+0085)',
    );
  });

  it('refuses a NUL in a freeze reason, leaving the account as it was', async () => {
    const { user } = await createCustomer(app);
    await expectRefused(
      () =>
        admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, {
          reason: 'Suspicious\u0000 sign-ins',
        }),
      'reason',
      nulMessage,
    );
    const detail = (await admin.client.get(`/api/v1/admin/users/${user.id}`)).json();
    expect(detail).toMatchObject({ isFrozen: false, frozenReason: null });
  });

  it('refuses a NUL in a deposit reference, recording no request', async () => {
    const { user } = await createCustomer(app);
    await expectRefused(
      () =>
        moneyRequest(admin.client, user.id, 'deposits', {
          amount: '10.00',
          externalReference: 'WIRE\u0000-1',
          reason: 'Incoming wire',
        }),
      'externalReference',
      nulMessage,
    );
  });

  it('answers 400, not 500, when such text still reaches the database', async () => {
    const response = await new TestClient(app).post('/api/v1/test/unchecked-text', {
      text: 'a\u0000b',
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(errorBodySchema.parse(response.json())).toEqual({
      error: { code: 'validation_failed', message: invalidTextMessage },
    });
    const stored = await new TestClient(app).post('/api/v1/test/unchecked-text', { text: 'ab' });
    expect(stored.json()).toEqual({ isStored: true });
  });
});

describe('reasons and references that become memos', () => {
  const tooLongReason = `Use at most ${moneyRequestReasonLengthMax} characters`;

  it.each([
    ['500 letters', 'r'.repeat(500), 'admin'],
    ['10,000 letters', 'r'.repeat(10_000), 'admin'],
    ['500 letters', 'r'.repeat(500), 'support'],
    ['400 emoji, 800 UTF-16 units', '🍜'.repeat(400), 'admin'],
  ] as const)(
    'refuses an adjustment reason of %s from %s, recording and moving nothing',
    async (_length, reason, role) => {
      const { user } = await createCustomer(app, { balance: '100.00' });
      const maker = role === 'admin' ? admin : support;
      await expectRefused(
        () => moneyRequest(maker.client, user.id, 'adjustments', { amount: '10.00', reason }),
        'reason',
        tooLongReason,
      );
    },
  );

  it('posts the longest reason allowed with its whole text in the memo', async () => {
    const { user } = await createCustomer(app, { balance: '100.00' });
    const reason = `Réf ${'🍜'.repeat(moneyRequestReasonLengthMax / 2 - 2)}`;
    expect(reason).toHaveLength(moneyRequestReasonLengthMax);
    const posted = await moneyRequest(admin.client, user.id, 'adjustments', {
      amount: '10.00',
      reason,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().status).toBe('posted');
    const entry = await db.query<{ memo: string }>(
      `SELECT e.memo FROM money_requests r JOIN journal_entries e ON e.id = r.entry_id
        WHERE r.id = $1`,
      [posted.json().id],
    );
    expect(entry.rows[0]?.memo).toBe(`Adjustment: ${reason}`);
  });

  it('refuses a reference longer than a memo can quote', async () => {
    const { user } = await createCustomer(app);
    await expectRefused(
      () =>
        moneyRequest(admin.client, user.id, 'deposits', {
          amount: '10.00',
          externalReference: 'W'.repeat(externalReferenceLengthMax + 1),
          reason: 'Incoming wire',
        }),
      'externalReference',
      `Use at most ${externalReferenceLengthMax} characters`,
    );
  });

  it('still posts a pending adjustment saved with a reason longer than today’s limit', async () => {
    const { user, wallet } = await createCustomer(app, { balance: '100.00' });
    const pending = await moneyRequest(support.client, user.id, 'adjustments', {
      amount: '10.00',
      reason: 'Mistaken deposit',
    });
    expect(pending.json().status).toBe('pending_approval');
    // As a request prepared before the limit could have been saved: 500 characters, two lines.
    const legacyReason = `Mistaken deposit\n${'x'.repeat(483)}`;
    await db.query('UPDATE money_requests SET reason = $2 WHERE id = $1', [
      pending.json().id,
      legacyReason,
    ]);
    const approved = await secondAdmin.client.post(
      `/api/v1/admin/money-requests/${pending.json().id}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'posted', reason: legacyReason });
    const entry = await db.query<{ entry_id: string }>(
      'SELECT entry_id FROM money_requests WHERE id = $1',
      [pending.json().id],
    );
    const memo = await memoOfEntry(entry.rows[0]?.entry_id ?? '');
    expect(memo).toHaveLength(memoLengthMax);
    expect(memo).toBe(`Adjustment: Mistaken deposit ${'x'.repeat(memoLengthMax - 30)}…`);
    expect((await app.ledger.balance(wallet.id)).balanceMinor).toBe(9000n);
  });

  it('fits the longest payout destination, fee and reference in the memo', async () => {
    const customer = await createCustomer(app, { level: 2, country: 'DE', balance: '100.00' });
    // 254 characters, the longest address the form takes.
    const longestEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(53)}.example`;
    expect(longestEmail).toHaveLength(254);
    const destination = {
      method: 'cashapp',
      emailOrCashtag: longestEmail,
      holderName: 'H'.repeat(100),
    };
    const stepUpCode = await emailedStepUpCode(app, customer, '10.00', destination);
    const created = await requestPayout(
      customer.client,
      { ...destination, amount: '10.00', stepUpCode },
      newIdempotencyKey(),
    );
    expect(created.statusCode, created.body).toBe(201);
    const payoutId = created.json().id;
    await expectRefused(
      () =>
        admin.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
          externalReference: 'R'.repeat(externalReferenceLengthMax + 1),
        }),
      'externalReference',
      `Use at most ${externalReferenceLengthMax} characters`,
    );
    const sent = await admin.client.post(`/api/v1/admin/payouts/${payoutId}/send`, {
      externalReference: 'R'.repeat(externalReferenceLengthMax),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const entry = await db.query<{ entry_id: string }>(
      'SELECT entry_id FROM payouts WHERE id = $1',
      [payoutId],
    );
    const memo = await memoOfEntry(entry.rows[0]?.entry_id ?? '');
    expect(memo.length).toBeLessThanOrEqual(memoLengthMax);
    expect(memo).toContain(longestEmail);
    expect(memo).toContain('R'.repeat(externalReferenceLengthMax));
  });
});

describe('statement periods', () => {
  const yesterday = todayUtc(new Date(Date.now() - 24 * 60 * 60 * 1000));

  it.each([
    ['month=0000-01', 'month', 'Statements start from January 2000'],
    ['month=1999-12', 'month', 'Statements start from January 2000'],
    ['month=9999-12', 'month', 'This month has not started yet'],
    ['from=0000-01-01&to=2000-01-31', 'from', 'Statements start from January 2000'],
    ['from=0050-02-01&to=0050-02-28', 'from', 'Statements start from January 2000'],
    [`from=${todayUtc()}&to=${yesterday}`, 'to', 'The last day cannot be before the first day'],
    ['from=2026-01-01&to=9999-12-31', 'to', 'The statement cannot end after today'],
  ])('refuses %s', async (query, field, message) => {
    const { client } = await createCustomer(app);
    for (const format of ['json', 'csv', 'pdf']) {
      await expectRefused(
        () => client.get(`/api/v1/statements?${query}&format=${format}`),
        field,
        message,
      );
    }
  });

  it('gives January 2000, the first month there is', async () => {
    const { client } = await createCustomer(app);
    const statement = await client.get('/api/v1/statements?month=2000-01');
    expect(statement.statusCode, statement.body).toBe(200);
    expect(statement.json()).toMatchObject({ from: '2000-01-01', to: '2000-01-31', entryCount: 0 });
  });
});
