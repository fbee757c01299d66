import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { authorizeOnCard, issuedCard, settle } from '../../../test/cards.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { fourEyesStaff, type TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { newId } from '../../platform/ids.ts';
import { todayIn } from '../books/queries.ts';

let app: FastifyInstance;
let db: Database;
let admin: TestClient;
let secondAdmin: TestClient;
let support: TestClient;
let customer: TestCustomer;
let token: string;
let lastFour: string;
let day: string;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    ({ admin, secondAdmin, support } = await fourEyesStaff(app));
  },
  // The sandbox issuer hands out its settlement files only in a sandbox.
  { env: { COFFER_SANDBOX: '1' }, checksAfterEach: 'ledger' },
);

const header = 'settlement_id,authorization_id,card_last_four,amount,currency,type,settled_at\r\n';

type Purchase = { authorizationId: string; settlementId: string };

/** A card purchase of `amountMinor` cents authorized and settled (captured or reversed). */
async function purchase(
  amountMinor: bigint,
  type: 'capture' | 'reversal' = 'capture',
): Promise<Purchase> {
  const authorizationId = `auth_${newId()}`;
  const settlementId = `settle_${newId()}`;
  const authorized = await authorizeOnCard(app, token, amountMinor, { id: authorizationId });
  expect(authorized.json().approved, authorized.body).toBe(true);
  const settled = await settle(app, authorizationId, type, settlementId);
  expect(settled.statusCode, settled.body).toBe(200);
  return { authorizationId, settlementId };
}

function line(
  bought: Purchase,
  amount: string,
  options: { currency?: string; type?: string } = {},
): string {
  const settledAt = new Date().toISOString();
  return `${bought.settlementId},${bought.authorizationId},${lastFour},${amount},${options.currency ?? 'USD'},${options.type ?? 'capture'},${settledAt}\r\n`;
}

function upload(
  client: TestClient,
  file: string | Buffer,
  forDay = day,
): Promise<LightMyRequestResponse> {
  return client.request('POST', `/api/v1/admin/card-settlements?day=${forDay}`, Buffer.from(file), {
    'content-type': 'text/csv',
  });
}

async function fileCount(): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM card_settlement_files',
  );
  return found.rows[0]?.count ?? 0;
}

type Item = {
  id: string;
  kind: string;
  reason: string;
  amountMinor: string;
  expectedMinor: string | null;
  refundableMinor: string | null;
};

async function openCardItems(): Promise<Item[]> {
  const listed = await support.get('/api/v1/admin/reconciliation');
  expect(listed.statusCode, listed.body).toBe(200);
  return (listed.json().items as Item[]).filter((item) => item.kind.includes('settlement'));
}

beforeAll(async () => {
  customer = await createCustomer(app, { level: 2, balance: '500.00' });
  ({ token } = await issuedCard(app, customer, admin));
  const card = await db.query<{ last_four: string }>(
    'SELECT last_four FROM cards WHERE issuer_token = $1',
    [token],
  );
  lastFour = card.rows[0]?.last_four ?? '';
  day = await todayIn(db, 'UTC');
});

describe('card settlement files', () => {
  it("the sandbox issuer's file of the day matches every settlement of ours", async () => {
    await purchase(1_250n);
    await purchase(399n);
    await purchase(700n, 'reversal');
    const downloaded = await support.get(`/api/v1/admin/card-settlements/sandbox-file?day=${day}`);
    expect(downloaded.statusCode, downloaded.body).toBe(200);
    expect(downloaded.headers['content-type']).toMatch(/^text\/csv/);
    const lines = downloaded.body.split('\r\n');
    expect(lines[0]).toBe(header.trim());
    expect(lines.slice(1, 4).map((row) => row.split(',').slice(2, 6))).toEqual([
      [lastFour, '12.50', 'USD', 'capture'],
      [lastFour, '3.99', 'USD', 'capture'],
      [lastFour, '7.00', 'USD', 'reversal'],
    ]);

    const imported = await upload(support, downloaded.body);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json()).toMatchObject({ day, lineCount: 3, matchedCount: 3, queuedCount: 0 });
    expect(await openCardItems()).toEqual([]);
    const audited = await db.query(
      "SELECT 1 FROM audit_events WHERE action = 'card_settlements_imported'",
    );
    expect(audited.rows).toHaveLength(1);

    const again = await upload(support, downloaded.body);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('file_already_imported');
  });

  let shortened: Purchase;
  let left: Purchase;

  it('queues a line for nothing of ours, amounts or currencies not ours, and what the file leaves out', async () => {
    shortened = await purchase(2_500n);
    const otherCurrency = await purchase(1_000n);
    left = await purchase(4_000n);
    const unknown = { authorizationId: 'auth_elsewhere', settlementId: 'settle_elsewhere' };
    const file =
      header +
      line(shortened, '20.00') +
      line(otherCurrency, '10.00', { currency: 'EUR' }) +
      line(unknown, '1.00');
    const imported = await upload(support, file);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json()).toMatchObject({ lineCount: 3, matchedCount: 0, queuedCount: 4 });
    const items = await openCardItems();
    expect(
      items.map((item) => [item.kind, item.amountMinor, item.expectedMinor, item.refundableMinor]),
    ).toEqual([
      ['settlement_difference', '2000', '2500', '500'],
      ['settlement_difference', '1000', '1000', null],
      ['unknown_settlement', '100', null, null],
      ['missing_settlement', '4000', '4000', '4000'],
    ]);
    expect(items.map((item) => item.reason)).toEqual([
      'Line 2: the processor settled 20.00 USD; ours was 25.00 USD',
      'Line 3: the processor settled 10.00 EUR; ours was 10.00 USD',
      'Line 4: settlement settle_elsewhere names no card purchase of ours',
      `Our capture ${left.settlementId} of ${day} is not in the processor's file`,
    ]);
  });

  it('refunds what we took beyond the settlement under four-eyes; the rest is a note', async () => {
    const [difference, currency, unknown] = await openCardItems();
    const refunded = await support.post(`/api/v1/admin/reconciliation/${difference?.id}/resolve`, {
      action: 'refund',
      note: 'The merchant took 20.00; give back the 5.00',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json()).toMatchObject({ status: 'resolved', resolution: 'refund' });
    const requestId = refunded.json().moneyRequestId;
    const pending = await db.query<{ status: string; amount_minor: bigint }>(
      'SELECT status, amount_minor FROM money_requests WHERE id = $1',
      [requestId],
    );
    expect(pending.rows[0]).toMatchObject({ status: 'pending_approval', amount_minor: 500n });
    const approved = await secondAdmin.post(
      `/api/v1/admin/money-requests/${requestId}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'posted', amountMinor: '500' });

    for (const item of [currency, unknown]) {
      const refused = await support.post(`/api/v1/admin/reconciliation/${item?.id}/resolve`, {
        action: 'refund',
        note: 'Give it back',
      });
      expect(refused.statusCode, refused.body).toBe(400);
      const deposit = await support.post(`/api/v1/admin/reconciliation/${item?.id}/resolve`, {
        action: 'deposit',
        accountNumber: customer.wallet.number,
        note: 'Not a credit',
      });
      expect(deposit.statusCode, deposit.body).toBe(400);
      const noted = await support.post(`/api/v1/admin/reconciliation/${item?.id}/resolve`, {
        action: 'note',
        note: 'The processor corrects it tomorrow',
      });
      expect(noted.statusCode, noted.body).toBe(200);
      expect(noted.json()).toMatchObject({ resolution: 'note', moneyRequestId: null });
    }
  });

  it('a later file holding the missing settlement resolves it as matched', async () => {
    const imported = await upload(support, header + line(left, '40.00'));
    expect(imported.json()).toMatchObject({ matchedCount: 1, queuedCount: 0 });
    expect(await openCardItems()).toEqual([]);
    const resolved = await support.get('/api/v1/admin/reconciliation?status=resolved');
    expect(
      resolved.json().items.find((item: Item) => item.kind === 'missing_settlement'),
    ).toMatchObject({ resolution: 'matched' });

    const twiceShown = await upload(support, `${header + line(left, '40.00')}\r\n`);
    expect(twiceShown.json()).toMatchObject({ matchedCount: 0, queuedCount: 1 });
    const [item] = await openCardItems();
    expect(item?.reason).toBe(
      `Line 2: settlement ${left.settlementId} was already in an earlier file`,
    );
    await support.post(`/api/v1/admin/reconciliation/${item?.id}/resolve`, {
      action: 'note',
      note: 'A resent file',
    });
  });

  it('imports one of two uploads of the same file at once', async () => {
    const before = await fileCount();
    const file =
      header + line({ authorizationId: 'auth_x', settlementId: `settle_${newId()}` }, '2.00');
    const answers = await Promise.all([upload(support, file), upload(admin, file)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    expect(await fileCount()).toBe(before + 1);
    const [item] = await openCardItems();
    await support.post(`/api/v1/admin/reconciliation/${item?.id}/resolve`, {
      action: 'note',
      note: 'Not ours',
    });
  });

  it('two files of the same day at once queue a settlement missing from both once', async () => {
    const missing = await purchase(150n);
    const files = ['a', 'b'].map(
      (name) =>
        header +
        line({ authorizationId: `auth_${name}`, settlementId: `settle_${newId()}` }, '1.00'),
    );
    const answers = await Promise.all(files.map((file) => upload(support, file)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    const items = await openCardItems();
    expect(items.filter((item) => item.kind === 'missing_settlement')).toMatchObject([
      { amountMinor: '150', reason: expect.stringContaining(missing.settlementId) },
    ]);
    for (const item of items) {
      const noted = await support.post(`/api/v1/admin/reconciliation/${item.id}/resolve`, {
        action: 'note',
        note: 'Checked with the processor',
      });
      expect(noted.statusCode, noted.body).toBe(200);
    }
  });

  it('lets only staff in', async () => {
    const file = header;
    const byCustomer = await customer.client.request(
      'POST',
      `/api/v1/admin/card-settlements?day=${day}`,
      Buffer.from(file),
      { 'content-type': 'text/csv' },
    );
    expect(byCustomer.statusCode).toBe(404);
    const customerDownload = await customer.client.get(
      `/api/v1/admin/card-settlements/sandbox-file?day=${day}`,
    );
    expect(customerDownload.statusCode).toBe(404);
    const anonymous = await app.inject({
      method: 'GET',
      url: `/api/v1/admin/card-settlements/sandbox-file?day=${day}`,
    });
    expect(anonymous.statusCode).toBe(401);
    const notCsv = await support.request(
      'POST',
      `/api/v1/admin/card-settlements?day=${day}`,
      Buffer.from('<x/>'),
      { 'content-type': 'application/xml' },
    );
    expect(notCsv.statusCode).toBe(415);
    const badDay = await upload(support, file, '2026-02-30');
    expect(badDay.statusCode).toBe(400);
  });
});

describe('settlement files refused whole, naming the line and column', () => {
  const good = () =>
    `${header}settle_1,auth_1,1234,3.00,USD,capture,${new Date().toISOString()}\r\n`;
  const cases: [string, () => string | Buffer, RegExp][] = [
    [
      'the wrong columns',
      () => good().replace('card_last_four,amount', 'amount,card_last_four'),
      /^line 1, column 3 \(card_last_four\): the header must be settlement_id,authorization_id/,
    ],
    [
      'a byte-order mark',
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good())]),
      /^line 1, column 1: the file starts with a byte-order mark/,
    ],
    [
      'semicolons',
      () => good().replaceAll(',', ';'),
      /^line 1, column 1 \(settlement_id\): a semicolon: a settlement file is separated by commas/,
    ],
    [
      'too many decimals',
      () => good().replace(',3.00,', ',3.001,'),
      /^line 2, column 4 \(amount\): the amount "3\.001" is refused: USD amounts have at most 2 decimal places/,
    ],
    [
      'an unknown currency',
      () => good().replace(',USD,', ',USX,'),
      /^line 2, column 5 \(currency\): "USX" is not a known currency/,
    ],
    [
      'a formula-looking cell',
      () => good().replace('auth_1', '=1+2'),
      /^line 2, column 2 \(authorization_id\): "=1\+2" starts like a spreadsheet formula/,
    ],
    [
      'a line short of columns',
      () => `${good()}settle_2,auth_2,1234\r\n`,
      /^line 3, column 4 \(amount\): the line has 3 columns; a settlement has 7/,
    ],
    [
      'a settlement twice',
      () => `${good() + good().split('\r\n')[1]}\r\n`,
      /^line 3, column 1 \(settlement_id\): settlement settle_1 is already on line 2/,
    ],
    [
      'a settlement of another day',
      () => good().replace(/,\d{4}-\d{2}-\d{2}T/, ',2001-01-01T'),
      /^line 2, column 7 \(settled_at\): it settled outside/,
    ],
    [
      'over 100,000 lines',
      () =>
        header +
        Array.from(
          { length: 100_001 },
          (_, index) => `s${index},a${index},1234,1.00,USD,capture,2026-01-01T00:00:00Z\r\n`,
        ).join(''),
      /^line 100002, column 1: a settlement file holds at most 100000 settlements/,
    ],
  ];
  for (const [name, file, message] of cases) {
    it(`refuses ${name}`, async () => {
      const before = await fileCount();
      const refused = await upload(support, file());
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('file_refused');
      expect(refused.json().error.message).toMatch(message);
      expect(refused.json().error.message).toMatch(/Nothing was imported\.$/);
      expect(await fileCount()).toBe(before);
    });
  }
});

describe('a settlement refunded as missing, then missing from another file of the day', () => {
  it('is not queued for a second refund', async () => {
    const missing = await purchase(300n);
    const otherLine = () =>
      header + line({ authorizationId: 'auth_o', settlementId: `settle_${newId()}` }, '1.00');
    expect((await upload(support, otherLine())).statusCode).toBe(201);
    const first = (await openCardItems()).find(
      (item) => item.kind === 'missing_settlement' && item.reason.includes(missing.settlementId),
    );
    expect(first).toMatchObject({ amountMinor: '300', refundableMinor: '300' });
    const refunded = await support.post(`/api/v1/admin/reconciliation/${first?.id}/resolve`, {
      action: 'refund',
      note: 'The processor never took it: give it back',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const approved = await secondAdmin.post(
      `/api/v1/admin/money-requests/${refunded.json().moneyRequestId}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    for (const item of await openCardItems()) {
      await support.post(`/api/v1/admin/reconciliation/${item.id}/resolve`, {
        action: 'note',
        note: 'Not ours',
      });
    }

    // Another file of the same day (a resent one, another hash) that leaves it out again.
    expect((await upload(support, otherLine())).statusCode).toBe(201);
    const again = (await openCardItems()).filter(
      (item) => item.kind === 'missing_settlement' && item.reason.includes(missing.settlementId),
    );
    expect(again).toEqual([]);
  });
});

describe('a settlement whose refund was refused, missing again from another file', () => {
  it('keeps its one reopened item, which a file showing the settlement then resolves', async () => {
    const missing = await purchase(200n);
    const otherLine = () =>
      header + line({ authorizationId: 'auth_r', settlementId: `settle_${newId()}` }, '1.00');
    const itemsOfMissing = async () =>
      (await openCardItems()).filter(
        (item) => item.kind === 'missing_settlement' && item.reason.includes(missing.settlementId),
      );
    expect((await upload(support, otherLine())).statusCode).toBe(201);
    const [first] = await itemsOfMissing();
    const refunded = await support.post(`/api/v1/admin/reconciliation/${first?.id}/resolve`, {
      action: 'refund',
      note: 'The processor never took it: give it back',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const rejected = await secondAdmin.post(
      `/api/v1/admin/money-requests/${refunded.json().moneyRequestId}/reject`,
      { reason: 'Ask the processor first' },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);

    expect((await upload(support, otherLine())).statusCode).toBe(201);
    expect((await itemsOfMissing()).map((item) => item.id)).toEqual([first?.id]);

    const shown = await upload(support, header + line(missing, '2.00'));
    expect(shown.json()).toMatchObject({ matchedCount: 1 });
    expect(await itemsOfMissing()).toEqual([]);
    for (const item of await openCardItems()) {
      await support.post(`/api/v1/admin/reconciliation/${item.id}/resolve`, {
        action: 'note',
        note: 'Not ours',
      });
    }
  });
});

describe('two files of a day holding one settlement, uploaded at once', () => {
  it('match it once; the other line waits as already in an earlier file', async () => {
    const bought = await purchase(700n);
    const file = (extra: string) => header + line(bought, '6.00') + extra;
    const answers = await Promise.all([upload(support, file('')), upload(support, file('\r\n'))]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    const items = (await openCardItems()).filter(
      (item) => (item as Item & { bankReference: string }).bankReference === bought.settlementId,
    );
    expect(items.map((item) => [item.kind, item.refundableMinor]).sort()).toEqual([
      ['settlement_difference', '100'],
      ['unknown_settlement', null],
    ]);
  });
});
