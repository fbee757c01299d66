import { checkDigitFor } from '@coffer/contracts/ledger';
import { recipientRefusedMessage } from '@coffer/contracts/recipient';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bulkCsv, bulkPaymentWhenDone, uploadBulkFile } from '../../../test/bulk-payments.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { lastEmailTo, newIdempotencyKey, staffClient } from '../../../test/http.ts';
import { lastStepUpCode } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';
import { translateText } from '../../platform/i18n.ts';

/** A well-formed account number nobody has (random ones start at 100000000, never this low). */
const unknownNumber = `000000001${checkDigitFor('000000001')}`;

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { checksAfterEach: 'money-out' },
);

async function bulkPaymentCount(userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM bulk_payments WHERE user_id = $1',
    [userId],
  );
  return found.rows[0]?.count ?? -1;
}

async function balanceOf(customer: TestCustomer): Promise<string> {
  const read = await customer.client.get('/api/v1/wallet');
  return read.json().balanceMinor;
}

function challenge(customer: TestCustomer, bulkPaymentId: string) {
  return customer.client.post('/api/v1/step-up/challenges', {
    purpose: 'bulk_payment',
    bulkPaymentId,
  });
}

/** The confirm, under `idempotencyKey` (a fresh one unless given), with `body` as it is. */
function confirm(
  customer: TestCustomer,
  bulkPaymentId: string,
  body: { stepUpCode?: string },
  idempotencyKey = newIdempotencyKey(),
) {
  return customer.client.post(`/api/v1/bulk-payments/${bulkPaymentId}/confirm`, body, {
    'idempotency-key': idempotencyKey,
  });
}

async function confirmWithCode(
  customer: TestCustomer,
  bulkPaymentId: string,
  idempotencyKey = newIdempotencyKey(),
) {
  const started = await challenge(customer, bulkPaymentId);
  expect(started.statusCode, started.body).toBe(200);
  const stepUpCode = await lastStepUpCode(app, customer.body.email);
  return confirm(customer, bulkPaymentId, { stepUpCode }, idempotencyKey);
}

/** A file refused as a whole: 400 (or `status`), the problems by line, nothing kept. */
async function expectRefused(
  customer: TestCustomer,
  file: string | Buffer,
  status = 400,
): Promise<{ message: string; fields: Record<string, string> }> {
  const uploaded = await uploadBulkFile(customer, file);
  expect(uploaded.statusCode, uploaded.body).toBe(status);
  expect(await bulkPaymentCount(customer.user.id)).toBe(0);
  const { error } = uploaded.json();
  return { message: error.message, fields: error.fields ?? {} };
}

describe('a bulk payment file', () => {
  it('is checked, confirmed with the code for its total, paid line by line and downloadable', async () => {
    const payer = await createCustomer(app, { balance: '900.00', level: 3 });
    const alice = await createCustomer(app);
    const bob = await createCustomer(app);
    const file = bulkCsv([
      `${alice.wallet.number},10.50,Invoice 1`,
      `${bob.body.email.toUpperCase()},2,`,
      `${alice.wallet.number},1.25,"=SUM(A1) later"`.replace('"=SUM(A1) later"', 'Rent, March'),
    ]);
    const uploaded = await uploadBulkFile(payer, file.replace('Rent, March', '"Rent, March"'));
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const checked = uploaded.json();
    expect(checked).toMatchObject({ status: 'checked', lineCount: 3, totalMinor: '1375' });
    expect(checked.dailyLimitMinor).toBe('2500000');
    expect(await balanceOf(payer)).toBe('90000');

    const withoutCode = await confirm(payer, checked.id, {});
    expect(withoutCode.json().error.code).toBe('step_up_required');

    expect((await challenge(payer, checked.id)).statusCode).toBe(200);
    expect((await lastEmailTo(db, payer.body.email)).text).toMatch(
      /to pay USD\s13\.75 in a file of 3 payments/,
    );
    const confirmKey = newIdempotencyKey();
    const confirmed = await confirmWithCode(payer, checked.id, confirmKey);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().status).toBe('paying');
    expect(confirmed.json().spentTodayMinor).toBe('1375');
    const done = await bulkPaymentWhenDone(payer, checked.id);
    expect(done).toMatchObject({ paidCount: 3, refusedCount: 0, paidMinor: '1375' });
    expect(await balanceOf(payer)).toBe(String(90000 - 1375));
    expect(await balanceOf(alice)).toBe('1175');
    expect(await balanceOf(bob)).toBe('200');

    // A retried confirm (its answer was lost) gets the first answer back, even after
    // the file was paid and even with the code already spent; a new confirm is refused.
    const stepUpCode = await lastStepUpCode(app, payer.body.email);
    const retried = await confirm(payer, checked.id, { stepUpCode }, confirmKey);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json()).toEqual(confirmed.json());
    const again = await confirm(payer, checked.id, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This file was confirmed already.');

    const result = await payer.client.get(`/api/v1/bulk-payments/${checked.id}/result`);
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toContain('text/csv');
    const rows = result.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(rows).toEqual([
      'line,recipient,amount,currency,reference,status,reason',
      `2,${alice.wallet.number},10.50,USD,Invoice 1,paid,`,
      `3,${bob.body.email.toUpperCase()},2.00,USD,,paid,`,
      `4,${alice.wallet.number},1.25,USD,"Rent, March",paid,`,
    ]);
    const received = await alice.client.get('/api/v1/transfers');
    expect(
      received
        .json()
        .items.map((item: { note: string }) => item.note)
        .sort(),
    ).toEqual(['Invoice 1', 'Rent, March']);
  });

  it("is another customer's 404, and staff read it on the customer's page", async () => {
    const payer = await createCustomer(app, { balance: '50.00' });
    const alice = await createCustomer(app);
    const uploaded = await uploadBulkFile(payer, bulkCsv([`${alice.wallet.number},1.00,x`]));
    const { id } = uploaded.json();
    const stranger = await createCustomer(app);
    expect((await stranger.client.get(`/api/v1/bulk-payments/${id}`)).statusCode).toBe(404);
    expect((await stranger.client.get(`/api/v1/bulk-payments/${id}/result`)).statusCode).toBe(404);
    expect((await challenge(stranger, id)).statusCode).toBe(404);
    const staff = await staffClient(app, 'support');
    const listed = await staff.client.get(`/api/v1/admin/users/${payer.user.id}/bulk-payments`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items).toMatchObject([{ id, status: 'checked', lineCount: 1 }]);
  });

  it('is refused at the challenge when its total is over the daily limit', async () => {
    const payer = await createCustomer(app, { balance: '900.00', level: 1 });
    const alice = await createCustomer(app);
    const { id } = (
      await uploadBulkFile(
        payer,
        bulkCsv([`${alice.wallet.number},300.00,a`, `${alice.wallet.number},300.00,b`]),
      )
    ).json();
    const started = await challenge(payer, id);
    expect(started.statusCode).toBe(409);
    expect(started.json().error.code).toBe('daily_limit_exceeded');
  });
});

describe('bad input', () => {
  let payer: TestCustomer;
  let alice: TestCustomer;

  async function setUp() {
    payer = await createCustomer(app, { balance: '100.00' });
    alice = await createCustomer(app);
  }

  it('refuses wrong columns, naming line 1', async () => {
    await setUp();
    const refused = await expectRefused(
      payer,
      bulkCsv([`${alice.wallet.number},1.00,a`], 'to,amount,memo'),
    );
    expect(refused.message).toContain(
      'line 1: the header must be exactly recipient,amount,reference',
    );
  });

  it('refuses a missing column on a line', async () => {
    await setUp();
    const refused = await expectRefused(
      payer,
      bulkCsv([`${alice.wallet.number},1.00,a`, `${alice.wallet.number},2.00`]),
    );
    expect(refused.fields['line 3']).toContain('it has 2 columns');
  });

  it('accepts a byte-order mark and Windows line ends', async () => {
    await setUp();
    const file = `\uFEFF${bulkCsv([`${alice.wallet.number},1.00,a`, `${alice.wallet.number},2.00,b`]).replaceAll('\n', '\r\n')}\r\n`;
    const uploaded = await uploadBulkFile(payer, file);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ lineCount: 2, totalMinor: '300' });
  });

  it('refuses semicolon separators with a clear message', async () => {
    await setUp();
    const refused = await expectRefused(
      payer,
      bulkCsv([`${alice.wallet.number};1.00;a`], 'recipient;amount;reference'),
    );
    expect(refused.message).toContain('separated by semicolons');
  });

  it('refuses an empty file', async () => {
    await setUp();
    expect((await expectRefused(payer, '')).message).toContain('the file is empty');
    expect((await expectRefused(payer, 'recipient,amount,reference\n')).message).toContain(
      'no payments after its header',
    );
  });

  it('refuses 10,001 lines, naming the line past the last', async () => {
    await setUp();
    const lines = Array.from(
      { length: 10_001 },
      (_, index) => `${alice.wallet.number},0.01,${index}`,
    );
    const refused = await expectRefused(payer, bulkCsv(lines));
    expect(refused.message).toContain('line 10002: a file holds at most 10,000 payments');
  });

  it('names duplicate lines', async () => {
    await setUp();
    const line = `${alice.wallet.number},1.00,same`;
    const refused = await expectRefused(
      payer,
      bulkCsv([line, `${alice.wallet.number},1.00,other`, line]),
    );
    expect(refused.fields).toEqual({
      'line 4': 'line: it repeats line 2 (same recipient, amount and reference)',
    });
  });

  it('refuses amounts with too many decimals, zero and negative, each by its line', async () => {
    await setUp();
    const n = alice.wallet.number;
    const refused = await expectRefused(
      payer,
      bulkCsv([`${n},1.005,a`, `${n},0,b`, `${n},-5.00,c`, `${n},1.00,d`]),
    );
    expect(refused.fields).toEqual({
      'line 2': 'amount: the amount "1.005" is refused: USD amounts have at most 2 decimal places',
      'line 3': 'amount: the amount is zero',
      'line 4': 'amount: the amount is negative',
    });
    expect(refused.message).toContain('3 problems');
  });

  it('sums a refused file’s problems up in the request’s language', async () => {
    await setUp();
    const n = alice.wallet.number;
    const upload = (lines: string[]) =>
      payer.client.request('POST', '/api/v1/bulk-payments', Buffer.from(bulkCsv(lines)), {
        'content-type': 'text/csv',
        'accept-language': 'de',
      });
    const three = (await upload([`${n},1.005,a`, `${n},0,b`, `${n},-5.00,c`])).json().error;
    const english = 'The file has 3 problems on lines 2, 3, 4. Nothing was paid.';
    expect(three.message).toBe(translateText('de', english));
    expect(three.message).toContain('2, 3, 4');
    expect(three.message).not.toBe(english);
    const one = (await upload([`${n},0,a`])).json().error;
    expect(one.message).toBe(
      translateText('de', 'The file has 1 problem on line 2. Nothing was paid.'),
    );
    expect(one.message).not.toMatch(/problem/);
  });

  it('refuses unknown and other-currency recipients alike, and the sender', async () => {
    await setUp();
    const euro = await createCustomer(app, { country: 'DE' });
    const refused = await expectRefused(
      payer,
      bulkCsv([
        `${unknownNumber},1.00,a`,
        'nobody@coffer.test,1.00,b',
        `${euro.wallet.number},1.00,c`,
        `${payer.wallet.number},1.00,d`,
        `${alice.wallet.number},1.00,e`,
      ]),
    );
    expect(refused.fields).toEqual({
      'line 2': `recipient: ${recipientRefusedMessage}`,
      'line 3': `recipient: ${recipientRefusedMessage}`,
      'line 4': `recipient: ${recipientRefusedMessage}`,
      'line 5': 'recipient: this is your own account; you cannot pay yourself',
    });
  });

  it('refuses formula-looking cells', async () => {
    await setUp();
    const refused = await expectRefused(
      payer,
      bulkCsv([`${alice.wallet.number},1.00,=HYPERLINK(1)`, `${alice.wallet.number},1.00,@SUM(1)`]),
    );
    expect(refused.fields, refused.message).toHaveProperty('line 2');
    expect(refused.fields['line 2']).toContain(
      'reference: "=HYPERLINK(1)" starts like a spreadsheet formula',
    );
    expect(refused.fields['line 3']).toContain('starts like a spreadsheet formula');
  });

  it('refuses a 20 MB file with a clear message', async () => {
    await setUp();
    const big = Buffer.alloc(20 * 1024 * 1024, 'a');
    const refused = await expectRefused(payer, big, 413);
    expect(refused.message).toBe('The file is larger than 2 MB. Split it into smaller files.');
  });

  it('refuses a file that is not sent as CSV', async () => {
    await setUp();
    const uploaded = await payer.client.post('/api/v1/bulk-payments', { recipient: 'x' });
    expect(uploaded.statusCode).toBe(415);
  });

  it('answers no more unknown recipients than the look-up limit, then none', async () => {
    await setUp();
    const unknown = Array.from({ length: 32 }, (_, index) => `nobody${index}@coffer.test,1.00,x`);
    const refused = await expectRefused(payer, bulkCsv(unknown));
    const told = Object.values(refused.fields);
    expect(told.filter((text) => text.includes(recipientRefusedMessage))).toHaveLength(30);
    expect(told.filter((text) => text.includes('look-ups are used up'))).toHaveLength(2);
    // A real customer is no longer told apart from anyone else.
    const after = await expectRefused(payer, bulkCsv([`${alice.wallet.number},1.00,a`]));
    expect(after.fields['line 2']).toContain('look-ups are used up');
  });
});
