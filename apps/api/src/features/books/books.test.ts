import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { daysAgo, moveEntriesBack } from '../../../test/books.ts';
import { createCustomer } from '../../../test/customers.ts';
import { createWallet, deposit, usd } from '../../../test/factories.ts';
import { staffClient, type TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { closeDueDays } from './service.ts';

let app: FastifyInstance;
let db: Database;
let admin: TestClient;
let support: TestClient;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = (await staffClient(app, 'admin')).client;
    support = (await staffClient(app, 'support')).client;
  },
  { checksAfterEach: 'ledger' },
);

const deps = () => ({ db, ledger: app.ledger, config: app.config });

async function closedDays(): Promise<string[]> {
  const found = await db.query<{ day: string }>(
    'SELECT day::text AS day FROM book_closes ORDER BY day',
  );
  return found.rows.map((row) => row.day);
}

describe('the daily close', () => {
  let threeDaysAgo: string;
  let yesterday: string;

  beforeAll(async () => {
    threeDaysAgo = await daysAgo(db, 3);
    yesterday = await daysAgo(db, 1);
    // 100.00 in three days ago, 30.00 more yesterday, 5.00 today.
    const wallet = await createWallet(app.ledger);
    let since = new Date();
    await deposit(app.ledger, wallet, 10_000n);
    await moveEntriesBack(db, since, 3);
    since = new Date();
    await deposit(app.ledger, wallet, 3_000n);
    await moveEntriesBack(db, since, 1);
    await deposit(app.ledger, wallet, 500n);
  });

  it('closes every missed day since the first line when the runner next runs', async () => {
    expect(await closedDays()).toEqual([]);
    await app.jobs.runDue();
    expect(await closedDays()).toEqual([threeDaysAgo, await daysAgo(db, 2), yesterday]);
    const balances = await db.query<{ day: string; opening_minor: bigint; closing_minor: bigint }>(
      `SELECT day::text AS day, opening_minor, closing_minor FROM book_close_balances
        WHERE account_kind = 'customer' ORDER BY day`,
    );
    expect(balances.rows.map((row) => [row.opening_minor, row.closing_minor])).toEqual([
      [0n, 10_000n],
      [10_000n, 10_000n],
      [10_000n, 13_000n],
    ]);
  });

  it('never closes a day twice, even when two closes race', async () => {
    const before = await closedDays();
    const [first, second] = await Promise.all([
      closeDueDays(deps(), new Date()),
      closeDueDays(deps(), new Date()),
    ]);
    expect([...first, ...second]).toEqual([]);
    expect(await closedDays()).toEqual(before);
    await expect(
      db.query(
        `INSERT INTO book_closes (day, time_zone, starts_at, ends_at, line_count, is_balanced, problems)
         VALUES ($1::date, 'UTC', now(), now() + interval '1 day', 0, true, '[]')`,
        [yesterday],
      ),
    ).rejects.toThrow(/duplicate key/);
  });

  it('refuses to change or remove a closed day', async () => {
    await expect(db.query('UPDATE book_closes SET is_balanced = false')).rejects.toThrow(
      /append-only/,
    );
    await expect(db.query('DELETE FROM book_close_balances')).rejects.toThrow(/append-only/);
    await expect(db.query('TRUNCATE book_closes CASCADE')).rejects.toThrow(/append-only/);
  });
});

describe('the trial balance', () => {
  it('shows a closed day per GL code, its debits equal to its credits', async () => {
    const yesterday = await daysAgo(db, 1);
    const response = await support.get(
      `/api/v1/admin/books/trial-balance?date=${yesterday}&currency=USD`,
    );
    expect(response.statusCode).toBe(200);
    const balance = response.json();
    expect(balance.status).toBe('closed');
    const [usdSection] = balance.currencies;
    expect(usdSection.rows.map((row: { glCode: string }) => row.glCode)).toEqual(['1010', '2100']);
    expect(usdSection.totalDebitsMinor).toBe('3000');
    expect(usdSection.totalCreditsMinor).toBe('3000');
    expect(usdSection.isBalanced).toBe(true);
  });

  it('shows today as provisional, computed live', async () => {
    const today = await daysAgo(db, 0);
    const balance = (await admin.get(`/api/v1/admin/books/trial-balance?date=${today}`)).json();
    expect(balance.status).toBe('provisional');
    expect(balance.closedAt).toBeNull();
    const customerRow = balance.currencies[0].rows.find(
      (row: { glCode: string }) => row.glCode === '2100',
    );
    expect(customerRow).toMatchObject({
      openingMinor: '13000',
      creditsMinor: '500',
      closingMinor: '13500',
    });
  });

  it('says where the books begin when asked for a day before the first entry', async () => {
    const [threeDaysAgo, fourDaysAgo] = [await daysAgo(db, 3), await daysAgo(db, 4)];
    const response = await support.get(`/api/v1/admin/books/trial-balance?date=${fourDaysAgo}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields.date).toBe(
      `The books begin on ${threeDaysAgo}: there is nothing before it`,
    );
  });

  it('downloads as CSV', async () => {
    const yesterday = await daysAgo(db, 1);
    const response = await support.get(
      `/api/v1/admin/books/trial-balance?date=${yesterday}&format=csv`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.body).toContain('USD,2100,Customer deposits,100.00,0.00,30.00,130.00\r\n');
    expect(response.body).toContain('USD,,Total,,30.00,30.00,\r\n');
  });

  it.each([
    ['a date that does not exist', 'date=2026-02-30'],
    ['no date', ''],
    ['a date that is not one', 'date=yesterday'],
    ['a date still to come', 'date=2999-01-01'],
    ['a date before the books start', 'date=0000-01-01'],
    ['an unknown currency', 'date=2026-01-01&currency=XYZ'],
    ['an unknown format', 'date=2026-01-01&format=xlsx'],
  ])('answers %s with 400', async (_name, query) => {
    const response = await support.get(`/api/v1/admin/books/trial-balance?${query}`);
    expect(response.statusCode).toBe(400);
  });

  it('is for staff only: a customer finds nothing there', async () => {
    const customer = await createCustomer(app);
    const response = await customer.client.get('/api/v1/admin/books/trial-balance?date=2026-01-01');
    expect(response.statusCode).toBe(404);
  });
});

describe('the general-ledger export', () => {
  it('lists each line with its GL code, debit or credit, and escapes formula-looking text', async () => {
    const wallet = await createWallet(app.ledger);
    const settlement = await app.ledger.systemAccount('settlement', usd);
    await app.ledger.post({
      kind: 'deposit',
      memo: '=HYPERLINK("http://evil.example")',
      lines: [
        { accountId: settlement, amountMinor: -1_234n },
        { accountId: wallet, amountMinor: 1_234n },
      ],
    });
    const today = await daysAgo(db, 0);
    const response = await admin.get(
      `/api/v1/admin/books/journal.csv?from=${await daysAgo(db, 3)}&to=${today}`,
    );
    expect(response.statusCode).toBe(200);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Entry id,Time (UTC),Kind,GL code,GL name,Account,Debit,Credit,Currency,Reference',
    );
    // Three deposits from beforeAll, this one: two lines each.
    expect(lines).toHaveLength(1 + 4 * 2);
    const last = lines.slice(-2);
    expect(last[0]).toMatch(
      /,Deposit,1010,Settlement bank account,\d{10},12\.34,,USD,"'=HYPERLINK\(""http:\/\/evil\.example""\)"$/,
    );
    expect(last[1]).toMatch(/,Deposit,2100,Customer deposits,\d{10},,12\.34,USD,/);
  });

  it('records in the audit log who downloaded which days, from where', async () => {
    const exporter = await staffClient(app, 'admin');
    const [from, to] = [await daysAgo(db, 2), await daysAgo(db, 1)];
    const response = await exporter.client.get(
      `/api/v1/admin/books/journal.csv?from=${from}&to=${to}`,
    );
    expect(response.statusCode).toBe(200);
    const refused = await exporter.client.get(
      `/api/v1/admin/books/journal.csv?from=${to}&to=${from}`,
    );
    expect(refused.statusCode).toBe(400);
    const recorded = await db.query<{ action: string; after: unknown; ip_address: string }>(
      'SELECT action, after, ip_address FROM audit_events WHERE actor_user_id = $1 ORDER BY id',
      [exporter.user.id],
    );
    const [login, ...exports] = recorded.rows;
    expect(login?.action).toBe('login_succeeded');
    expect(exports).toEqual([
      { action: 'books_journal_exported', after: { from, to }, ip_address: login?.ip_address },
    ]);
  });

  it('is the admin’s: support is refused', async () => {
    const response = await support.get(
      '/api/v1/admin/books/journal.csv?from=2026-01-01&to=2026-01-02',
    );
    expect(response.statusCode).toBe(403);
  });

  it.each([
    ['an end before the start', 'from=2026-01-02&to=2026-01-01'],
    ['more than a year', 'from=2024-01-01&to=2025-06-01'],
    ['a day that does not exist', 'from=2026-13-01&to=2026-12-01'],
    ['a year PostgreSQL has no date for', 'from=0000-01-01&to=0000-01-02'],
    ['no range', ''],
  ])('answers %s with 400', async (_name, query) => {
    const response = await admin.get(`/api/v1/admin/books/journal.csv?${query}`);
    expect(response.statusCode).toBe(400);
  });
});
