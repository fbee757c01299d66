import { formatMoney, toDecimalString } from '@coffer/contracts/money';
import { todayUtc } from '@coffer/contracts/statements';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { redateEntries } from '../../../test/books.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { usd } from '../../../test/factories.ts';
import { signedUpClient, staffClient, TestClient } from '../../../test/http.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId, EntryId } from '../../ledger/ledger.ts';
import { statementPageSize } from './service.ts';

let db: Database;
let app: FastifyInstance;
let settlement: AccountId;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    settlement = await app.ledger.systemAccount('settlement', usd);
  },
  { checksAfterEach: 'ledger' },
);

async function customerWithWallet() {
  const { client, user, body } = await signedUpClient(app);
  const found = await db.query<{ id: AccountId; number: string }>(
    "SELECT id, number FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [user.id],
  );
  const wallet = found.rows[0];
  if (!wallet) throw new Error('sign-up opens a wallet');
  return {
    client,
    user,
    username: body.username,
    walletId: wallet.id,
    walletNumber: wallet.number,
  };
}

/**
 * Moves money into (positive) or out of (negative) the wallet. `at` backdates the entry:
 * the ledger is append-only and stamps entries with the time they are made, so only this
 * test lifts the guard for a moment, to stand in for days having passed.
 */
async function post(
  walletId: AccountId,
  amountMinor: bigint,
  options: { memo?: string; at?: string; lineCount?: number } = {},
): Promise<EntryId> {
  const lineCount = options.lineCount ?? 1;
  const { entryId } = await app.ledger.post({
    kind: amountMinor > 0n ? 'deposit' : 'bill_payment',
    memo: options.memo ?? (amountMinor > 0n ? 'Salary' : 'Electricity bill'),
    lines: [
      ...Array.from({ length: lineCount }, () => ({ accountId: walletId, amountMinor })),
      { accountId: settlement, amountMinor: -amountMinor * BigInt(lineCount) },
    ],
  });
  if (options.at) {
    await redateEntries(db, {
      set: '$2',
      where: 'id = $1',
      params: [entryId, new Date(options.at)],
    });
  }
  return entryId;
}

type StatementJson = {
  openingBalanceMinor: string;
  closingBalanceMinor: string;
  moneyInMinor: string;
  moneyOutMinor: string;
  entryCount: number;
  entries: {
    description: string;
    amountMinor: string;
    balanceAfterMinor: string;
    createdAt: string;
  }[];
};

async function statementJson(client: TestClient, query: string): Promise<StatementJson> {
  const response = await client.get(`/api/v1/statements?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/**
 * RFC 4180: fields split by commas, records by CRLF, quoted fields with "" for a quote;
 * after the byte-order mark every statement starts with (spreadsheets then read UTF-8).
 */
function parseCsv(body: string): string[][] {
  expect(body.startsWith('\uFEFF'), 'a byte-order mark first').toBe(true);
  const text = body.slice(1);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let isQuoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (isQuoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') {
        isQuoted = false;
      } else {
        field += char;
      }
    } else if (char === '"' && field === '') {
      isQuoted = true;
    } else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else {
      field += char;
    }
  }
  expect(field === '' && record.length === 0, 'the CSV ends with CRLF').toBe(true);
  return records;
}

function usdText(amountMinor: bigint): string {
  return formatMoney({ amountMinor, currency: usd }, { currencyDisplay: 'code' }).replace(
    /\s/g,
    ' ',
  );
}

describe('statement balances', () => {
  it('opens with everything before the first day and closes after the last day', async () => {
    const { client, walletId } = await customerWithWallet();
    await post(walletId, 100_000n, { at: '2025-09-30T23:59:59.999Z', memo: 'Before' });
    await post(walletId, 2_000n, { at: '2025-10-01T00:00:00.000Z', memo: 'First instant' });
    await post(walletId, -4_520n, { at: '2025-10-15T12:00:00.000Z', memo: 'Middle' });
    await post(walletId, 1_234n, { at: '2025-10-31T23:59:59.999Z', memo: 'Last instant' });
    await post(walletId, 50_000n, { at: '2025-11-01T00:00:00.000Z', memo: 'After' });

    const october = await statementJson(client, 'month=2025-10');
    expect(october).toMatchObject({
      from: '2025-10-01',
      to: '2025-10-31',
      currency: 'USD',
      openingBalanceMinor: '100000',
      closingBalanceMinor: '98714',
      moneyInMinor: '3234',
      moneyOutMinor: '4520',
      entryCount: 3,
    });
    expect(
      october.entries.map((entry) => [
        entry.description,
        entry.amountMinor,
        entry.balanceAfterMinor,
      ]),
    ).toEqual([
      ['First instant', '2000', '102000'],
      ['Middle', '-4520', '97480'],
      ['Last instant', '1234', '98714'],
    ]);
    const sameByRange = await statementJson(client, 'from=2025-10-01&to=2025-10-31');
    expect(sameByRange).toEqual(october);

    const oneDay = await statementJson(client, 'from=2025-10-31&to=2025-10-31');
    expect(oneDay).toMatchObject({
      openingBalanceMinor: '97480',
      closingBalanceMinor: '98714',
      entryCount: 1,
    });
    const november = await statementJson(client, 'month=2025-11');
    expect(november).toMatchObject({ openingBalanceMinor: '98714', closingBalanceMinor: '148714' });
  });

  it('closes a period ending today on the ledger balance', async () => {
    const { client, walletId } = await customerWithWallet();
    await post(walletId, 70_000n, { at: '2025-01-10T09:00:00.000Z' });
    await post(walletId, 30_000n);
    await post(walletId, -1_250n);
    const from = new Date(Date.now() - 20 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    const statement = await statementJson(client, `from=${from}&to=${todayUtc()}`);
    const { balanceMinor } = await app.ledger.balance(walletId);
    expect(balanceMinor).toBe(98_750n);
    expect(statement.closingBalanceMinor).toBe(balanceMinor.toString());
    expect(statement.openingBalanceMinor).toBe('70000');
    const thisMonth = await statementJson(client, `month=${todayUtc().slice(0, 7)}`);
    expect(thisMonth.closingBalanceMinor).toBe(balanceMinor.toString());
  });

  it('shows only the customer’s own account', async () => {
    const owner = await customerWithWallet();
    const other = await customerWithWallet();
    await post(owner.walletId, 10_000n, { memo: 'Owner salary' });
    const statement = await statementJson(other.client, `month=${todayUtc().slice(0, 7)}`);
    expect(statement).toMatchObject({
      accountNumber: other.walletNumber,
      openingBalanceMinor: '0',
      closingBalanceMinor: '0',
      entries: [],
    });
    const csv = await other.client.get(
      `/api/v1/statements?month=${todayUtc().slice(0, 7)}&format=csv`,
    );
    expect(csv.body).not.toContain('Owner salary');

    const admin = await staffClient(app, 'admin');
    expect((await admin.client.get('/api/v1/statements?month=2025-10')).statusCode).toBe(403);
    expect((await new TestClient(app).get('/api/v1/statements?month=2025-10')).statusCode).toBe(
      401,
    );
  });
});

describe('days and times in the customer’s time zone', () => {
  it('cuts months and shows times in the zone the customer chose', async () => {
    const { client, walletId } = await customerWithWallet();
    // 08:30 on 1 November in Tokyo is still 31 October in UTC.
    await post(walletId, 5_000n, { at: '2025-10-31T23:30:00.000Z', memo: 'Tokyo breakfast' });
    // A customer in the United States (several zones) starts in the institution's (UTC here).
    expect((await statementJson(client, 'month=2025-10')).entries).toHaveLength(1);

    const chosen = await client.request('PATCH', '/api/v1/profile/time-zone', {
      timeZone: 'Asia/Tokyo',
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ timeZone: 'Asia/Tokyo', isTimeZoneChosen: true });
    expect((await statementJson(client, 'month=2025-10')).entries).toEqual([]);
    const november = await statementJson(client, 'month=2025-11');
    expect(november).toMatchObject({ timeZone: 'Asia/Tokyo', openingBalanceMinor: '0' });
    expect(november.entries.map((entry) => entry.description)).toEqual(['Tokyo breakfast']);

    const csv = parseCsv((await client.get('/api/v1/statements?month=2025-11&format=csv')).body);
    expect(csv[0]?.[0]).toBe('Date (Asia/Tokyo)');
    expect(csv[2]?.slice(0, 3)).toEqual(['2025-11-01 08:30:00', 'Deposit', 'Tokyo breakfast']);
    const pdf = await client.get('/api/v1/statements?month=2025-11&format=pdf');
    expect(await pdfText(pdf.rawPayload)).toContain('Nov 1, 2025 to Nov 30, 2025 (Asia/Tokyo)');
  });

  it('starts from the country’s zone, and takes only real zones', async () => {
    const japan = await createCustomer(app, { country: 'JP' });
    const profile = (await japan.client.get('/api/v1/profile')).json();
    expect(profile).toMatchObject({ timeZone: 'Asia/Tokyo', isTimeZoneChosen: false });
    expect((await japan.client.get('/api/v1/auth/me')).json().timeZone).toBe('Asia/Tokyo');
    for (const timeZone of ['+09:00', 'Mars/Olympus_Mons', 'Tokyo', `Asia/${'x'.repeat(70)}`]) {
      const refused = await japan.client.request('PATCH', '/api/v1/profile/time-zone', {
        timeZone,
      });
      expect(refused.statusCode, timeZone).toBe(400);
      expect(refused.json().error.fields.timeZone, timeZone).toBeDefined();
    }
    const after = (await japan.client.get('/api/v1/profile')).json();
    expect(after).toMatchObject({ timeZone: 'Asia/Tokyo', isTimeZoneChosen: false });
  });
});

describe('statement files', () => {
  it('downloads a CSV that parses back to every entry, with exact amounts', async () => {
    const { client, walletId } = await customerWithWallet();
    await post(walletId, 125_000n, { at: '2025-09-12T08:00:00.000Z' });
    await post(walletId, -4_520n, {
      at: '2025-10-03T14:22:05.000Z',
      memo: 'Electricity bill (ref. 12345), "October"',
    });
    await post(walletId, 1n, { at: '2025-10-04T10:00:00.000Z', memo: 'Line one\r\nline two' });

    const response = await client.get('/api/v1/statements?month=2025-10&format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="coffer-statement-2025-10.csv"',
    );
    expect(response.headers['cache-control']).toBe('no-store');
    expect(parseCsv(response.body)).toEqual([
      ['Date (UTC)', 'Type', 'Description', 'Amount', 'Currency', 'Balance'],
      ['2025-10-01', 'Opening balance', '', '', 'USD', '1250.00'],
      [
        '2025-10-03 14:22:05',
        'Bill payment',
        'Electricity bill (ref. 12345), "October"',
        '-45.20',
        'USD',
        '1204.80',
      ],
      ['2025-10-04 10:00:00', 'Deposit', 'Line one\r\nline two', '0.01', 'USD', '1204.81'],
      ['2025-10-31', 'Closing balance', '', '', 'USD', '1204.81'],
    ]);
  });

  it('keeps descriptions from running as spreadsheet formulas', async () => {
    const { client, walletId } = await customerWithWallet();
    const memos = [
      '=HYPERLINK("http://evil.example","Refund")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\tTab',
    ];
    await post(walletId, 10_000n);
    for (const memo of memos) await post(walletId, -100n, { memo });
    const response = await client.get(
      `/api/v1/statements?month=${todayUtc().slice(0, 7)}&format=csv`,
    );
    const rows = parseCsv(response.body).slice(3, -1);
    expect(rows.map((row) => row[2])).toEqual(memos.map((memo) => `'${memo}`));
    expect(rows.map((row) => row[3])).toEqual(memos.map(() => '-1.00'));
  });

  it('downloads a PDF with the opening and closing balances, breaking long statements into pages', async () => {
    const { client, walletId, username, walletNumber } = await customerWithWallet();
    await post(walletId, 100_000n, { at: '2025-09-30T12:00:00.000Z' });
    // More lines than one page of the query, so the statement is read in several.
    const lineCount = statementPageSize + 40;
    await post(walletId, 25n, { at: '2025-10-02T12:00:00.000Z', memo: 'Interest', lineCount });
    await post(walletId, -4_520n, {
      at: '2025-10-20T12:00:00.000Z',
      memo: 'Water bill (ref. W-1)',
    });
    const closingMinor = 100_000n + 25n * BigInt(lineCount) - 4_520n;

    const response = await client.get(
      '/api/v1/statements?from=2025-10-01&to=2025-10-31&format=pdf',
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="coffer-statement-2025-10-01_2025-10-31.pdf"',
    );
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Coffer');
    expect(text).toContain(username);
    expect(text).toContain(walletNumber);
    expect(text).toContain('Oct 1, 2025 to Oct 31, 2025 (UTC)');
    expect(text).toContain('Opening balance: ');
    expect(text).toContain(usdText(100_000n));
    expect(text).toContain('Closing balance: ');
    expect(text).toContain(usdText(closingMinor));
    expect(text).toContain('Water bill (ref. W-1)');
    expect(text.match(/Interest/g)).toHaveLength(lineCount);
    const pageCount = pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
    expect(pageCount).toBeGreaterThan(10);
    expect(text).toContain(`page ${pageCount}`);

    const csvRows = parseCsv(
      (await client.get('/api/v1/statements?month=2025-10&format=csv')).body,
    );
    expect(csvRows).toHaveLength(lineCount + 4);
    expect(csvRows.at(-1)?.[5]).toBe(toDecimalString(closingMinor, usd));
    const preview = await statementJson(client, 'month=2025-10');
    expect(preview.entryCount).toBe(lineCount + 1);
    expect(preview.entries).toHaveLength(200);
    expect(preview.closingBalanceMinor).toBe(closingMinor.toString());
    expect([preview.moneyInMinor, preview.moneyOutMinor]).toEqual([
      (25n * BigInt(lineCount)).toString(),
      '4520',
    ]);
    // The preview's first lines run on from the opening balance, as the whole statement does.
    expect(preview.entries[0]?.balanceAfterMinor).toBe('100025');
  });

  it('prints names in any script with the bundled fonts, read back as the same text', async () => {
    const { client } = await customerWithWallet();
    const name = 'Łukasz 山田 Ωmega';
    const renamed = await client.request('PATCH', '/api/v1/profile/username', { username: name });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const response = await client.get('/api/v1/statements?month=2025-10&format=pdf');
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain(`Account holder: ${name}`);
    expect(text).not.toContain('?');
    // Embedded TrueType subsets (Noto Sans and Noto Sans JP), not the standard fonts.
    const source = response.rawPayload.toString('latin1');
    expect(source).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSans-/);
    expect(source).toMatch(/\/BaseFont \/[A-Z]{6}\+NotoSansJP-/);
    expect(source).not.toContain('/Helvetica');
  });

  it('prints an Arabic name in its own font, its words from the right', async () => {
    const { client } = await customerWithWallet();
    const name = 'محمد علي الصباح';
    const renamed = await client.request('PATCH', '/api/v1/profile/username', { username: name });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const response = await client.get('/api/v1/statements?month=2025-10&format=pdf');
    const text = await pdfText(response.rawPayload);
    expect(text).not.toContain('?');
    // The words as drawn, left to right: the first on the right. pdf.js guesses the gaps
    // between runs from their positions (at times two spaces), and reads a joined letter
    // form pdfkit maps to no character as a control character: copying the name out of the
    // PDF gives such stray characters, drawing it does not.
    const drawn = text.replace(/\p{Cc}/gu, '').replace(/\s+/g, ' ');
    expect(drawn).toContain('Account holder: الصباح علي محمد');
    expect(response.rawPayload.toString('latin1')).toMatch(
      /\/BaseFont \/[A-Z]{6}\+NotoSansArabic-/,
    );
  });

  it('writes a statement with no entries', async () => {
    const { client } = await customerWithWallet();
    const response = await client.get('/api/v1/statements?month=2025-10&format=pdf');
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('No transactions in this period.');
    expect(text).toContain(`Closing balance: ${usdText(0n)}`);
  });
});

describe('Quick Pay on statements', () => {
  async function customerNamed(username: string, balance?: string): Promise<TestCustomer> {
    const customer = await createCustomer(app, balance === undefined ? {} : { balance });
    const renamed = await customer.client.request('PATCH', '/api/v1/profile/username', {
      username,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    return customer;
  }

  it('names the other customer, masked, in the preview, the CSV, the PDF and the staff list', async () => {
    const dana = await customerNamed('Dana Reyes', '100.00');
    const omar = await customerNamed('Omar Said');
    const sent = await quickPay(dana.client, {
      recipient: omar.wallet.number,
      amount: '12.50',
      note: 'Lunch',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const returned = await quickPay(omar.client, { recipient: dana.body.email, amount: '2.50' });
    expect(returned.statusCode, returned.body).toBe(201);
    const month = todayUtc().slice(0, 7);

    const danaLines = ['Quick Pay to O*** S***: Lunch', 'Quick Pay from O*** S***'];
    const danaPreview = await statementJson(dana.client, `month=${month}`);
    expect(danaPreview.entries.map((entry) => entry.description)).toEqual([
      'test deposit',
      ...danaLines,
    ]);
    const danaCsv = (await dana.client.get(`/api/v1/statements?month=${month}&format=csv`)).body;
    expect(parseCsv(danaCsv).map((row) => row[2])).toEqual([
      'Description',
      '',
      'test deposit',
      ...danaLines,
      '',
    ]);
    const danaPdf = await pdfText(
      (await dana.client.get(`/api/v1/statements?month=${month}&format=pdf`)).rawPayload,
    );
    for (const line of danaLines) expect(danaPdf).toContain(line);

    const omarPreview = await statementJson(omar.client, `month=${month}`);
    expect(omarPreview.entries.map((entry) => entry.description)).toEqual([
      'Quick Pay from D*** R***: Lunch',
      'Quick Pay to D*** R***',
    ]);
    const omarFiles = [
      (await omar.client.get(`/api/v1/statements?month=${month}&format=csv`)).body,
      await pdfText(
        (await omar.client.get(`/api/v1/statements?month=${month}&format=pdf`)).rawPayload,
      ),
    ];
    for (const file of omarFiles) {
      expect(file).toContain('Quick Pay from D*** R***: Lunch');
      expect(file).not.toContain('Dana');
    }
    expect(danaCsv + danaPdf).not.toContain('Omar');

    const admin = await staffClient(app, 'support');
    const staffList = await admin.client.get(`/api/v1/admin/users/${dana.user.id}/transactions`);
    expect(staffList.statusCode).toBe(200);
    expect(
      staffList
        .json()
        .items.map((item: { description: string; memo: string }) => [item.description, item.memo]),
    ).toEqual([
      ['Quick Pay from O*** S***', 'Quick Pay'],
      ['Quick Pay to O*** S***: Lunch', 'Lunch'],
      ['test deposit', 'test deposit'],
    ]);
    expect(staffList.body).not.toContain('Omar');
  });
});

describe('statement periods', () => {
  const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const nextMonth = new Date(Date.now() + 32 * 24 * 60 * 60 * 1000).toISOString().slice(0, 7);

  it.each([
    ['', 'month', 'Pick a month or a date range'],
    [
      'month=2025-10&from=2025-10-01&to=2025-10-02',
      'month',
      'Pick a month or a date range, not both',
    ],
    ['from=2025-10-01', 'to', 'Pick the last day'],
    ['to=2025-10-01', 'from', 'Pick the first day'],
    ['from=2025-10-02&to=2025-10-01', 'to', 'The last day cannot be before the first day'],
    [`from=2025-10-02&to=${tomorrow}`, 'to', 'The statement cannot end after today'],
    [`month=${nextMonth}`, 'month', 'This month has not started yet'],
    ['from=2024-01-01&to=2025-01-01', 'from', 'A statement covers at most one year'],
    ['from=2025-02-29&to=2025-03-01', 'from', 'That date does not exist'],
    ['from=2025-10-1&to=2025-10-02', 'from', 'Enter a date like 2026-11-30'],
    ['month=2025-13', 'month', 'Pick a month like 2026-11'],
  ])('refuses "%s"', async (query, field, message) => {
    const { client } = await customerWithWallet();
    const response = await client.get(`/api/v1/statements?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'validation_failed', message });
    expect(response.json().error.fields[field]).toBe(message);
  });

  it('accepts a whole leap year and refuses an unknown format', async () => {
    const { client } = await customerWithWallet();
    expect((await client.get('/api/v1/statements?from=2024-01-01&to=2024-12-31')).statusCode).toBe(
      200,
    );
    expect((await client.get('/api/v1/statements?month=2025-10&format=xls')).statusCode).toBe(400);
  });
});
