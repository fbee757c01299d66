import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { fourEyesStaff, type TestClient } from '../../../test/http.ts';
import { camt053, sandboxBankIban, type TestStatementEntry } from '../../../test/payment-files.ts';
import { bankDestination, emailedStepUpCode, requestPayout } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';
import { endToEndIdOf } from './batches.ts';

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
  { env: { COFFER_BANK_IBAN: sandboxBankIban }, checksAfterEach: 'ledger' },
);

const ibans = ['DE02120300000000202051', 'FR1420041010050500013M02606', 'NL91ABNA0417164300'];

/** A pending bank payout of `amount` from `customer`, as the withdraw form makes it. */
async function pendingPayout(
  customer: TestCustomer,
  amount: string,
  destination: Partial<Record<keyof typeof bankDestination, string>> = {},
): Promise<string> {
  const stepUpCode = await emailedStepUpCode(app, customer, amount, {
    ...bankDestination,
    ...destination,
  });
  const created = await requestPayout(customer.client, {
    ...bankDestination,
    ...destination,
    amount,
    stepUpCode,
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().id;
}

function upload(client: TestClient, xml: string | Buffer): Promise<LightMyRequestResponse> {
  return client.request('POST', '/api/v1/admin/bank-statements', Buffer.from(xml), {
    'content-type': 'application/xml',
  });
}

async function statementCount(): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM bank_statements',
  );
  return found.rows[0]?.count ?? 0;
}

async function openItems() {
  const listed = await support.get('/api/v1/admin/reconciliation');
  expect(listed.statusCode, listed.body).toBe(200);
  return listed.json().items as { id: string; kind: string; reason: string; amountMinor: string }[];
}

describe('payout batches, bank statements and the reconciliation queue', () => {
  let customer: TestCustomer;
  let payoutIds: string[];
  let batch: { id: string; reference: string };

  it('sends three EUR payouts in one pain.001 file under one batch reference', async () => {
    customer = await createCustomer(app, { country: 'DE', level: 2, balance: '500.00' });
    payoutIds = [];
    for (const [index, amount] of ['10.00', '20.50', '30.25'].entries()) {
      payoutIds.push(await pendingPayout(customer, amount, { accountNumber: ibans[index] }));
    }

    const bySupport = await support.post('/api/v1/admin/payout-batches', { payoutIds });
    expect(bySupport.statusCode).toBe(403);

    const created = await admin.post('/api/v1/admin/payout-batches', { payoutIds });
    expect(created.statusCode, created.body).toBe(201);
    batch = created.json();
    expect(created.json()).toMatchObject({
      format: 'pain.001',
      currency: 'EUR',
      payoutCount: 3,
      totalMinor: '6075',
      downloadCount: 0,
    });
    const mine = (await customer.client.get('/api/v1/payouts')).json().items;
    expect(mine.map((payout: { status: string }) => payout.status)).toEqual([
      'sent',
      'sent',
      'sent',
    ]);
    expect(
      new Set(mine.map((payout: { externalReference: string }) => payout.externalReference)),
    ).toEqual(new Set([batch.reference]));

    const again = await admin.post('/api/v1/admin/payout-batches', { payoutIds });
    expect(again.statusCode).toBe(409);
  });

  it('downloads the file once; a second download is the same file, audited and marked', async () => {
    const first = await admin.get(`/api/v1/admin/payout-batches/${batch.id}/file`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toContain('application/xml');
    expect(first.headers['x-coffer-previous-downloads']).toBe('0');
    expect(first.body).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
    expect(first.body).toContain(`<MsgId>${batch.reference}</MsgId>`);
    expect(first.body).toContain(`<IBAN>${sandboxBankIban}</IBAN>`);
    expect(first.body.match(/<CdtTrfTxInf>/g)).toHaveLength(3);
    for (const payoutId of payoutIds) expect(first.body).toContain(endToEndIdOf(payoutId));
    expect(first.body).toContain('<InstdAmt Ccy="EUR">20.50</InstdAmt>');

    const second = await admin.get(`/api/v1/admin/payout-batches/${batch.id}/file`);
    expect(second.body).toBe(first.body);
    expect(second.headers['x-coffer-previous-downloads']).toBe('1');
    const listed = (await support.get('/api/v1/admin/payout-batches')).json().items;
    expect(listed[0]).toMatchObject({ id: batch.id, downloadCount: 2 });
    expect(listed[0].firstDownloadedAt).not.toBeNull();
    const audited = await db.query(
      "SELECT 1 FROM audit_events WHERE action = 'payout_batch_downloaded'",
    );
    expect(audited.rows).toHaveLength(2);
  });

  it('imports a statement: a customer credit becomes a deposit request, debits match payouts, the rest waits', async () => {
    const entries: TestStatementEntry[] = [
      { amount: '10.00', isCredit: false, endToEndId: endToEndIdOf(payoutIds[0] ?? '') },
      { amount: '20.50', isCredit: false, endToEndId: endToEndIdOf(payoutIds[1] ?? '') },
      {
        amount: '42.00',
        isCredit: true,
        remittance: `Top-up for account ${customer.wallet.number}`,
        counterparty: 'Ada Lovelace',
        bankReference: 'CREDIT-ADA',
      },
      { amount: '7.77', isCredit: true, remittance: 'Invoice 99', counterparty: 'Nobody Known' },
    ];
    const xml = camt053(entries);
    const imported = await upload(support, xml);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json()).toMatchObject({
      entryCount: 4,
      depositRequestCount: 1,
      matchedPayoutCount: 2,
      queuedCount: 2,
    });

    const requests = (
      await support.get(`/api/v1/admin/users/${customer.user.id}/money-requests`)
    ).json().items;
    expect(requests).toMatchObject([
      {
        direction: 'deposit',
        amountMinor: '4200',
        externalReference: 'CREDIT-ADA',
        status: 'pending_approval',
      },
    ]);

    const items = await openItems();
    expect(items.map((item) => [item.kind, item.amountMinor])).toEqual([
      ['unmatched_credit', '777'],
      ['missing_payout', '3025'],
    ]);
    expect(items[0]?.reason).toBe('Its remittance information names no customer account');
    expect(items[1]?.reason).toBe(
      `Sent in batch ${batch.reference}, but no statement has debited it`,
    );

    const twice = await upload(support, xml);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('file_already_imported');
  });

  it('resolves: crediting the unknown credit waits for a second admin, a note is audited', async () => {
    const [credit, missing] = await openItems();
    const resolved = await admin.post(`/api/v1/admin/reconciliation/${credit?.id}/resolve`, {
      action: 'deposit',
      accountNumber: customer.wallet.number,
      note: 'The customer phoned: it was their top-up',
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolution: 'deposit' });
    const requestId = resolved.json().moneyRequestId;
    const own = await admin.post(`/api/v1/admin/money-requests/${requestId}/approve`, {});
    expect(own.json().error.code).toBe('own_request');
    const approved = await secondAdmin.post(
      `/api/v1/admin/money-requests/${requestId}/approve`,
      {},
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'posted', amountMinor: '777' });

    const noteOnly = await support.post(`/api/v1/admin/reconciliation/${missing?.id}/resolve`, {
      action: 'deposit',
      accountNumber: customer.wallet.number,
      note: 'Not a credit',
    });
    expect(noteOnly.statusCode).toBe(400);
    const noted = await support.post(`/api/v1/admin/reconciliation/${missing?.id}/resolve`, {
      action: 'note',
      note: 'The bank confirms it leaves on Monday',
    });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json()).toMatchObject({ status: 'resolved', resolution: 'note' });
    const twice = await support.post(`/api/v1/admin/reconciliation/${missing?.id}/resolve`, {
      action: 'note',
      note: 'Again',
    });
    expect(twice.json().error.code).toBe('already_decided');
    expect(await openItems()).toEqual([]);
    const audited = await db.query(
      "SELECT 1 FROM audit_events WHERE action = 'reconciliation_resolved'",
    );
    expect(audited.rows).toHaveLength(2);
  });

  it('queues a debit of another amount than its payout, and one naming nothing of ours', async () => {
    const payoutId = await pendingPayout(customer, '5.00', { accountNumber: ibans[0] });
    const created = await admin.post('/api/v1/admin/payout-batches', { payoutIds: [payoutId] });
    expect(created.statusCode, created.body).toBe(201);
    const imported = await upload(
      support,
      camt053([
        { amount: '5.01', isCredit: false, endToEndId: endToEndIdOf(payoutId) },
        { amount: '1.00', isCredit: false, endToEndId: 'SOMEONE-ELSE' },
      ]),
    );
    expect(imported.json()).toMatchObject({ matchedPayoutCount: 1, queuedCount: 2 });
    expect((await openItems()).map((item) => [item.kind, item.reason])).toEqual([
      ['amount_difference', 'The bank debited 5.01 EUR; the payout was 5.00 EUR'],
      ['unmatched_debit', 'It names none of our sent payouts or batches'],
    ]);
  });

  it('writes other currencies as a CSV batch, formula-looking names escaped', async () => {
    const american = await createCustomer(app, { level: 2, balance: '100.00' });
    const payoutId = await pendingPayout(american, '12.00', { holderName: '=HYPERLINK("x")' });
    const created = await admin.post('/api/v1/admin/payout-batches', { payoutIds: [payoutId] });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ format: 'csv', currency: 'USD' });
    const file = await admin.get(`/api/v1/admin/payout-batches/${created.json().id}/file`);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.body.split('\r\n')[1]).toBe(
      `${created.json().reference},${endToEndIdOf(payoutId)},12.00,USD,"'=HYPERLINK(""x"")",First Test Bank,12345678`,
    );
  });

  it('refuses an EUR payout to an account number that is no IBAN', async () => {
    const payoutId = await pendingPayout(customer, '1.00');
    const refused = await admin.post('/api/v1/admin/payout-batches', { payoutIds: [payoutId] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toContain('not an IBAN');
  });
});

describe('two statements debiting one payout, uploaded at once', () => {
  it('match it once; the other debit waits in the queue', async () => {
    const customer = await createCustomer(app, { country: 'DE', level: 2, balance: '50.00' });
    const payoutId = await pendingPayout(customer, '4.00', { accountNumber: ibans[0] });
    const created = await admin.post('/api/v1/admin/payout-batches', { payoutIds: [payoutId] });
    expect(created.statusCode, created.body).toBe(201);
    const debit = { amount: '4.00', isCredit: false, endToEndId: endToEndIdOf(payoutId) };
    const answers = await Promise.all(
      ['RACE-A', 'RACE-B'].map((reference) => upload(support, camt053([debit], { reference }))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    expect(answers.map((answer) => answer.json().matchedPayoutCount).sort()).toEqual([0, 1]);
    const twice = (await openItems()).filter(
      (item) => item.reason === 'Its payout was already debited in a statement',
    );
    expect(twice).toHaveLength(1);
  });
});

describe('two batches of the same payouts made at once', () => {
  // Chosen in another order, the two once deadlocked on PostgreSQL: one answered 500.
  it('send each payout in exactly one batch', async () => {
    const customer = await createCustomer(app, { country: 'DE', level: 2, balance: '50.00' });
    const payoutIds = [
      await pendingPayout(customer, '1.00', { accountNumber: ibans[1] }),
      await pendingPayout(customer, '2.00', { accountNumber: ibans[2] }),
    ];
    const answers = await Promise.all([
      admin.post('/api/v1/admin/payout-batches', { payoutIds }),
      secondAdmin.post('/api/v1/admin/payout-batches', { payoutIds: [...payoutIds].reverse() }),
    ]);
    // One batch is made; the other is refused whole, so it made no batch and sent nothing.
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const batches = await db.query<{ batch_id: string }>(
      'SELECT DISTINCT batch_id FROM payouts WHERE id = ANY($1::uuid[])',
      [payoutIds],
    );
    expect(batches.rows).toHaveLength(1);
    const made = await db.query('SELECT 1 FROM payout_batches WHERE id = $1', [
      batches.rows[0]?.batch_id,
    ]);
    expect(made.rows).toHaveLength(1);
  });
});

describe('a credit resolved into a deposit the second admin rejects', () => {
  it('comes back to the queue to be resolved again', async () => {
    const customer = await createCustomer(app, { balance: '1.00' });
    const imported = await upload(
      support,
      camt053([{ amount: '6.00', currency: 'USD', isCredit: true, remittance: 'Rent 12' }]),
    );
    expect(imported.statusCode, imported.body).toBe(201);
    const credit = (await openItems()).find((item) => item.amountMinor === '600');
    const resolved = await support.post(`/api/v1/admin/reconciliation/${credit?.id}/resolve`, {
      action: 'deposit',
      accountNumber: customer.wallet.number,
      note: 'Probably theirs',
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const rejected = await secondAdmin.post(
      `/api/v1/admin/money-requests/${resolved.json().moneyRequestId}/reject`,
      { reason: 'Not this customer: ask the bank' },
    );
    expect(rejected.statusCode, rejected.body).toBe(200);

    // The bank's 6.00 is still nobody's: the item is open again, not lost among the resolved.
    const reopened = (await openItems()).find((item) => item.id === credit?.id);
    expect(reopened).toMatchObject({ status: 'open' });
    const noted = await support.post(`/api/v1/admin/reconciliation/${credit?.id}/resolve`, {
      action: 'note',
      note: 'The bank returns it to the sender',
    });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json()).toMatchObject({ status: 'resolved', resolution: 'note' });
  });
});

describe('statements that are refused whole, naming the line', () => {
  const good = () =>
    camt053([{ amount: '3.00', isCredit: true, remittance: 'Something', counterparty: 'A' }]);
  const cases: [string, () => string | Buffer, RegExp][] = [
    [
      'not well formed',
      () => good().replace('</Ntry>', ''),
      /^line 2\d, column \d+: not well-formed XML/,
    ],
    [
      'another standard',
      () => good().replace('camt.053.001.08', 'camt.054.001.08'),
      /^line 2, column 1: not a camt\.053 statement/,
    ],
    [
      'another account',
      () => camt053([], { iban: 'GB82WEST12345698765432' }),
      /^line 8, column 7: this statement is of account GB82WEST12345698765432/,
    ],
    [
      'a byte-order mark',
      () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good())]),
      /^line 1, column 1: the file starts with a byte-order mark/,
    ],
    [
      'too many decimals',
      () => good().replace('>3.00<', '>3.001<'),
      /^line 10, column 9: the amount "3\.001" is refused: EUR amounts have at most 2 decimal places/,
    ],
    [
      'an unknown currency',
      () => good().replace('Ccy="EUR"', 'Ccy="EUX"'),
      /^line 10, column 9: "EUX" is not a known currency/,
    ],
    [
      'formula-looking text',
      () => good().replace('Something', '@SUM(A1)'),
      /^line 16, column 11: Ustrd "@SUM\(A1\)" starts like a spreadsheet formula/,
    ],
    [
      'a DOCTYPE',
      () => good().replace('<Document', '<!DOCTYPE x []>\n<Document'),
      /^line 2, column 1: a statement has no DOCTYPE/,
    ],
  ];
  for (const [name, file, message] of cases) {
    it(`refuses ${name}`, async () => {
      const before = await statementCount();
      const refused = await upload(support, file());
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('file_refused');
      expect(refused.json().error.message).toMatch(message);
      expect(refused.json().error.message).toMatch(/Nothing was imported\.$/);
      expect(await statementCount()).toBe(before);
    });
  }

  it('refuses a body that is not XML', async () => {
    const refused = await support.request(
      'POST',
      '/api/v1/admin/bank-statements',
      Buffer.from('a,b\n'),
      { 'content-type': 'text/csv' },
    );
    expect(refused.statusCode).toBe(415);
  });
});
