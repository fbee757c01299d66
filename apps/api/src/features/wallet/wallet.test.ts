import type { LiveEvent, LiveTopic } from '@coffer/contracts/events';
import type { WalletTransaction } from '@coffer/contracts/wallet';
import type { FastifyInstance } from 'fastify';
import { friendlyFormatIBAN, isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import { redateEntries } from '../../../test/books.ts';
import { usd } from '../../../test/factories.ts';
import {
  newIdempotencyKey,
  signedUpClient,
  staffClient,
  type TestClient,
} from '../../../test/http.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId, HoldId } from '../../ledger/ledger.ts';
import { newId } from '../../platform/ids.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
  },
  { env: { COFFER_SANDBOX: '1' }, checksAfterEach: 'ledger' },
);

function addTestMoney(client: TestClient, amount: string, key = newIdempotencyKey()) {
  return client.post('/api/v1/wallet/test-money', { amount }, { 'idempotency-key': key });
}

async function walletIdOf(userId: string): Promise<AccountId> {
  const found = await db.query<{ id: AccountId }>(
    "SELECT id FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [userId],
  );
  const id = found.rows[0]?.id;
  if (!id) throw new Error(`no wallet for ${userId}`);
  return id;
}

async function allTransactions(client: TestClient): Promise<WalletTransaction[]> {
  const response = await client.get('/api/v1/wallet/transactions?limit=100');
  expect(response.statusCode).toBe(200);
  return response.json().items;
}

/** A Quick Pay as the transfers feature records it: one entry and its transfers row. */
async function quickPay(from: string, to: string, amountMinor: bigint, note: string | null) {
  const [fromWallet, toWallet] = [await walletIdOf(from), await walletIdOf(to)];
  await db.transaction(async (tx) => {
    const { entryId } = await app.ledger.post(
      {
        kind: 'transfer',
        memo: 'Quick Pay',
        actorUserId: from,
        lines: [
          { accountId: fromWallet, amountMinor: -amountMinor },
          { accountId: toWallet, amountMinor },
        ],
      },
      tx,
    );
    await tx.query(
      `INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency, note)
       VALUES ($1, $2, $3, $4, 'USD', $5)`,
      [entryId, from, to, amountMinor, note],
    );
  });
}

/** A payout as the payouts feature records it: the amount and fee held, waiting for staff. */
async function pendingPayout(userId: string, amountMinor: bigint, feeMinor = 0n) {
  const walletId = await walletIdOf(userId);
  const payoutId = newId();
  await db.transaction(async (tx) => {
    const holdId = await app.ledger.hold(
      { accountId: walletId, amountMinor: amountMinor + feeMinor, reason: 'payout' },
      tx,
    );
    await tx.query(
      `INSERT INTO payouts (id, user_id, account_id, hold_id, amount_minor, fee_minor, currency,
                            method, destination)
       VALUES ($1, $2, $3, $4, $5, $6, 'USD', 'paypal', '{}')`,
      [payoutId, userId, walletId, holdId, amountMinor, feeMinor],
    );
  });
  return payoutId;
}

async function rejectPayout(payoutId: string, reason: string) {
  await db.transaction(async (tx) => {
    const found = await tx.query<{ hold_id: HoldId }>(
      `UPDATE payouts SET status = 'rejected', decision_reason = $2, decided_at = now()
        WHERE id = $1 RETURNING hold_id`,
      [payoutId, reason],
    );
    const holdId = found.rows[0]?.hold_id;
    if (!holdId) throw new Error(`no payout ${payoutId}`);
    await app.ledger.release(holdId, tx);
  });
}

/** Resolves with the next live event about `userId`, or fails after `timeoutMs`. */
/** The next live event for the person that carries `topic` (a notification comes too). */
function nextEventFor(userId: string, topic: LiveTopic, timeoutMs = 5_000): Promise<LiveEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no live event for ${userId} within ${timeoutMs} ms`));
    }, timeoutMs);
    const stop = app.eventHub.subscribe((event) => {
      if (event.userId !== userId || !event.topics.includes(topic)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

describe('wallet summary', () => {
  it('shows the customer their own account number, balance, held and available funds', async () => {
    const { client, user } = await signedUpClient(app);
    const empty = await client.get('/api/v1/wallet');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({
      accountNumber: expect.stringMatching(/^\d{10}$/),
      // No COFFER_IBAN: accounts have their number only.
      iban: null,
      currency: 'USD',
      balanceMinor: '0',
      heldMinor: '0',
      availableMinor: '0',
    });
    expect((await addTestMoney(client, '100.00')).statusCode).toBe(201);
    await pendingPayout(user.id, 3_000n, 50n);
    expect((await client.get('/api/v1/wallet')).json()).toMatchObject({
      balanceMinor: '10000',
      heldMinor: '3050',
      availableMinor: '6950',
    });
  });

  it('shows each customer only their own wallet and transactions', async () => {
    const alice = await signedUpClient(app);
    const bruno = await signedUpClient(app);
    await addTestMoney(alice.client, '12.34');
    const aliceWallet = (await alice.client.get('/api/v1/wallet')).json();
    const brunoWallet = (await bruno.client.get('/api/v1/wallet')).json();
    expect(brunoWallet.accountNumber).not.toBe(aliceWallet.accountNumber);
    expect(brunoWallet.balanceMinor).toBe('0');
    expect(await allTransactions(bruno.client)).toEqual([]);
    expect((await bruno.client.get('/api/v1/wallet/deposits')).json().items).toEqual([]);
    // Staff have no wallet of their own and cannot reach a customer's through these routes.
    expect((await admin.client.get('/api/v1/wallet')).statusCode).toBe(403);
  });
});

describe('IBANs', () => {
  it('gives every account, and its statements, the IBAN of its number where the operator set COFFER_IBAN', async () => {
    const withIbans = await buildTestApp(db, { COFFER_SANDBOX: '1', COFFER_IBAN: 'DE:37040044' });
    try {
      const { client } = await signedUpClient(withIbans);
      const { accountNumber, iban } = (await client.get('/api/v1/wallet')).json();
      expect(iban).toMatch(new RegExp(`^DE\\d{2}37040044${accountNumber}$`));
      expect(isValidIBAN(iban)).toBe(true);
      // Statements name it too: the on-screen one, and the PDF in groups of four.
      const month = new Date().toISOString().slice(0, 7);
      const statement = (await client.get(`/api/v1/statements?month=${month}`)).json();
      expect(statement.iban).toBe(iban);
      const pdf = await client.get(`/api/v1/statements?month=${month}&format=pdf`);
      expect(await pdfText(pdf.rawPayload)).toContain(`IBAN: ${friendlyFormatIBAN(iban)}`);
    } finally {
      await withIbans.close();
    }
  });
});

describe('transactions', () => {
  it('lists ledger lines and unsettled payouts newest first with signed amounts and statuses', async () => {
    const sender = await signedUpClient(app);
    const recipient = await signedUpClient(app, { username: 'Jane Doe' });
    await addTestMoney(sender.client, '500.00');
    await quickPay(sender.user.id, recipient.user.id, 12_500n, 'Rent share');
    const rejected = await pendingPayout(sender.user.id, 4_000n);
    await rejectPayout(rejected, 'Name on the account does not match');
    await pendingPayout(sender.user.id, 2_000n, 100n);

    expect(
      (await allTransactions(sender.client)).map(({ status, amountMinor, kind, description }) => ({
        status,
        amountMinor,
        kind,
        description,
      })),
    ).toEqual([
      {
        status: 'pending',
        amountMinor: '-2100',
        kind: 'payout',
        description: 'Withdrawal to PayPal',
      },
      {
        status: 'rejected',
        amountMinor: '-4000',
        kind: 'payout',
        description: 'Withdrawal to PayPal (rejected: Name on the account does not match)',
      },
      {
        status: 'completed',
        amountMinor: '-12500',
        kind: 'transfer',
        description: 'Quick Pay to J*** D***: Rent share',
      },
      {
        status: 'completed',
        amountMinor: '50000',
        kind: 'deposit',
        description: 'Sandbox test money',
      },
    ]);
    const received = await allTransactions(recipient.client);
    expect(received).toEqual([
      expect.objectContaining({
        amountMinor: '12500',
        description: expect.stringMatching(/^Quick Pay from T\*\*\* \d\*\*\*: Rent share$/),
      }),
    ]);
  });

  it('pages through lines and payouts without repeating or skipping any', async () => {
    const { client, user } = await signedUpClient(app);
    await addTestMoney(client, '100.00');
    for (let index = 1; index <= 4; index += 1) {
      await addTestMoney(client, `${index}.00`);
      await pendingPayout(user.id, BigInt(index * 10));
    }
    const everything = await allTransactions(client);
    expect(everything).toHaveLength(9);
    const paged: WalletTransaction[] = [];
    let cursor: string | null = null;
    let pageCount = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = (await client.get(`/api/v1/wallet/transactions?limit=2${query}`)).json();
      expect(page.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.items);
      cursor = page.nextCursor;
      pageCount += 1;
    } while (cursor && pageCount < 20);
    expect(pageCount).toBe(5);
    expect(paged).toEqual(everything);
    const times = paged.map((item) => Date.parse(item.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('refuses a malformed cursor or limit', async () => {
    const { client } = await signedUpClient(app);
    for (const query of [
      'cursor=abc',
      'cursor=1~not-a-uuid',
      'cursor=9223372036854775808~',
      'limit=0',
      'limit=101',
    ]) {
      const response = await client.get(`/api/v1/wallet/transactions?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code).toBe('validation_failed');
    }
  });
});

/** Moves an entry back in time, as if it had been posted days ago. */
async function backdate(memo: string, daysAgo: number) {
  await redateEntries(db, {
    set: 'now() - make_interval(days => $2::int)',
    where: 'memo = $1',
    params: [memo, daysAgo],
  });
}

describe('balance history', () => {
  async function post(walletId: AccountId, amountMinor: bigint, memo: string) {
    const settlement = await app.ledger.systemAccount('settlement', usd);
    await app.ledger.post({
      kind: amountMinor > 0n ? 'deposit' : 'adjustment',
      memo,
      lines: [
        { accountId: settlement, amountMinor: -amountMinor },
        { accountId: walletId, amountMinor },
      ],
    });
  }

  it('gives the end-of-day balance of each of the last 30 days, as the ledger sums it', async () => {
    const { client, user } = await signedUpClient(app);
    const walletId = await walletIdOf(user.id);
    const marker = newId();
    const history: [bigint, number][] = [
      [50_000n, 45],
      [20_000n, 29],
      [-5_000n, 12],
      [1_500n, 12],
      [-2_500n, 3],
      [700n, 0],
    ];
    for (const [index, [amountMinor, daysAgo]] of history.entries()) {
      await post(walletId, amountMinor, `${marker} ${index}`);
      await backdate(`${marker} ${index}`, daysAgo);
    }
    const response = await client.get('/api/v1/wallet/balance-history');
    expect(response.statusCode).toBe(200);
    const { currency, points } = response.json() as {
      currency: string;
      points: { date: string; balanceMinor: string }[];
    };
    expect(currency).toBe('USD');
    expect(points).toHaveLength(30);
    expect(points.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    for (const point of points) {
      const dayEnd = new Date(`${point.date}T00:00:00Z`);
      dayEnd.setUTCDate(dayEnd.getUTCDate() + 1);
      const ledger = await db.query<{ balance: bigint }>(
        `SELECT coalesce(sum(l.amount_minor), 0)::bigint AS balance
           FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
          WHERE l.account_id = $1 AND e.created_at < $2`,
        [walletId, dayEnd],
      );
      expect(point.balanceMinor, point.date).toBe(ledger.rows[0]?.balance.toString());
    }
    expect(points[0]?.balanceMinor).toBe('70000');
    expect(points.at(-1)?.balanceMinor).toBe('64700');
    expect((await client.get('/api/v1/wallet')).json().balanceMinor).toBe('64700');
    expect((await client.get('/api/v1/wallet/balance-history?days=7')).json().points).toEqual(
      points.slice(-7),
    );
    expect((await client.get('/api/v1/wallet/balance-history?days=0')).statusCode).toBe(400);
  });

  it('says how much of today’s balance is held for pending withdrawals', async () => {
    const { client, user } = await signedUpClient(app);
    await addTestMoney(client, '100.00');
    const before = (await client.get('/api/v1/wallet/balance-history?days=2')).json();
    expect(before.heldMinor).toBe('0');
    await pendingPayout(user.id, 3_000n, 50n);
    const history = (await client.get('/api/v1/wallet/balance-history?days=2')).json();
    // A hold moves nothing in the ledger: the balance still counts the held funds.
    expect(history.points.at(-1)).toMatchObject({ balanceMinor: '10000' });
    expect(history.heldMinor).toBe('3050');
  });
});

describe('spending by category', () => {
  async function spend(
    walletId: AccountId,
    kind: 'bill_payment' | 'card_purchase',
    amountMinor: bigint,
    memo: string,
  ) {
    const clearing = await app.ledger.systemAccount(
      kind === 'bill_payment' ? 'bill_clearing' : 'card_clearing',
      usd,
    );
    await app.ledger.post({
      kind,
      memo,
      lines: [
        { accountId: walletId, amountMinor: -amountMinor },
        { accountId: clearing, amountMinor },
      ],
    });
  }

  it('sums what left the wallet in each of the last six months by category', async () => {
    const payer = await signedUpClient(app);
    const payee = await signedUpClient(app);
    await addTestMoney(payer.client, '900.00');
    const walletId = await walletIdOf(payer.user.id);
    const marker = newId();
    await spend(walletId, 'bill_payment', 4_000n, `${marker} bill`);
    await backdate(`${marker} bill`, 62);
    // Seven months ago is before the chart's first month.
    await spend(walletId, 'card_purchase', 9_900n, `${marker} old card`);
    await backdate(`${marker} old card`, 215);
    await spend(walletId, 'card_purchase', 250n, `${marker} card`);
    await quickPay(payer.user.id, payee.user.id, 1_234n, null);

    const response = await payer.client.get('/api/v1/wallet/spending');
    expect(response.statusCode, response.body).toBe(200);
    const { currency, months } = response.json() as {
      currency: string;
      months: { month: string; spentMinor: Record<string, string> }[];
    };
    expect(currency).toBe('USD');
    expect(months).toHaveLength(6);
    expect(months.at(-1)).toEqual({
      month: new Date().toISOString().slice(0, 7),
      spentMinor: { transfer: '1234', bill_payment: '0', card_purchase: '250', payout: '0' },
    });
    const billMonth = new Date(Date.now() - 62 * 24 * 60 * 60 * 1000).toISOString().slice(0, 7);
    expect(months.find((month) => month.month === billMonth)?.spentMinor.bill_payment).toBe('4000');
    const total = months.reduce(
      (sum, month) => sum + Object.values(month.spentMinor).reduce((a, b) => a + BigInt(b), 0n),
      0n,
    );
    expect(total).toBe(5_484n);
    // Money received is nobody's spending: the payee's chart is empty.
    const payeeMonths = (await payee.client.get('/api/v1/wallet/spending')).json().months as {
      spentMinor: Record<string, string>;
    }[];
    expect(payeeMonths.flatMap((month) => Object.values(month.spentMinor))).toEqual(
      Array(24).fill('0'),
    );
  });
});

describe('add money', () => {
  it('lists only the deposits into the wallet, newest first', async () => {
    const { client, user } = await signedUpClient(app);
    const other = await signedUpClient(app);
    await addTestMoney(client, '10.00');
    await quickPay(user.id, other.user.id, 100n, null);
    const deposit = await admin.client.post(
      `/api/v1/admin/users/${user.id}/deposits`,
      { amount: '20.00', externalReference: 'WIRE-77', reason: 'Incoming wire' },
      { 'idempotency-key': `wallet-deposit-${Date.now()}` },
    );
    expect(deposit.statusCode).toBe(201);
    const adjustment = await admin.client.post(
      `/api/v1/admin/users/${user.id}/adjustments`,
      { amount: '1.00', reason: 'Reverse a fee' },
      { 'idempotency-key': `wallet-adjustment-${Date.now()}` },
    );
    expect(adjustment.statusCode).toBe(201);
    const deposits = (await client.get('/api/v1/wallet/deposits')).json().items;
    expect(deposits.map((item: WalletTransaction) => [item.description, item.amountMinor])).toEqual(
      [
        ['Deposit (ref. WIRE-77)', '2000'],
        ['Sandbox test money', '1000'],
      ],
    );
  });

  it('credits test money once per Idempotency-Key, from the sandbox funding account', async () => {
    const { client, user } = await signedUpClient(app);
    const first = await addTestMoney(client, '250.00', 'same-click');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ amountMinor: '25000', currency: 'USD' });
    const again = await addTestMoney(client, '250.00', 'same-click');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await client.get('/api/v1/wallet')).json().balanceMinor).toBe('25000');
    const lines = await db.query<{ account_kind: string; amount_minor: bigint }>(
      `SELECT a.kind AS account_kind, l.amount_minor FROM journal_lines l
         JOIN accounts a ON a.id = l.account_id
        WHERE l.entry_id = $1 ORDER BY l.amount_minor`,
      [first.json().entryId],
    );
    expect(lines.rows).toEqual([
      { account_kind: 'sandbox_funding', amount_minor: -25_000n },
      { account_kind: 'customer', amount_minor: 25_000n },
    ]);
    const entries = await db.query<{ count: bigint }>(
      `SELECT count(*)::bigint AS count FROM journal_lines l
         JOIN journal_entries e ON e.id = l.entry_id
        WHERE l.account_id = $1 AND e.kind = 'deposit' AND e.actor_user_id = $2`,
      [await walletIdOf(user.id), user.id],
    );
    expect(entries.rows[0]?.count).toBe(1n);
  });

  it('refuses amounts that are not positive, too precise or above the cap, and needs a key', async () => {
    const { client } = await signedUpClient(app);
    const cases: [string, string][] = [
      ['0', 'Please enter a valid amount'],
      ['1.001', 'USD amounts have at most 2 decimal places'],
      ['-5', 'Enter the amount as digits, like 12.50'],
      ['10000.01', 'Test money is limited to $10,000.00 per request.'],
    ];
    for (const [amount, message] of cases) {
      const response = await addTestMoney(client, amount);
      expect(response.statusCode, amount).toBe(400);
      expect(response.json().error).toMatchObject({ message, fields: { amount: message } });
    }
    expect((await addTestMoney(client, '10000.00')).statusCode).toBe(201);
    const withoutKey = await client.post('/api/v1/wallet/test-money', { amount: '1.00' });
    expect(withoutKey.json().error.code).toBe('idempotency_key_required');
    expect((await client.get('/api/v1/wallet')).json().balanceMinor).toBe('1000000');
  });

  it('caps test money per customer per UTC day, in the wallet’s currency', async () => {
    const cases = [
      {
        country: 'US',
        requests: ['10000.00', '10000.00', '5000.00'],
        over: '0.01',
        terms: { currency: 'USD', perRequestMinor: '1000000', dailyMinor: '2500000' },
      },
      {
        country: 'JP',
        requests: ['1500000', '1500000', '750000'],
        over: '1',
        terms: { currency: 'JPY', perRequestMinor: '1500000', dailyMinor: '3750000' },
      },
    ];
    for (const { country, requests, over, terms } of cases) {
      const { client } = await signedUpClient(app, { country });
      const termsBefore = await client.get('/api/v1/wallet/test-money');
      expect(termsBefore.json()).toEqual({ ...terms, addedTodayMinor: '0' });
      for (const amount of requests)
        expect((await addTestMoney(client, amount)).statusCode).toBe(201);
      const termsAfter = await client.get('/api/v1/wallet/test-money');
      expect(termsAfter.json()).toEqual({ ...terms, addedTodayMinor: terms.dailyMinor });
      const refused = await addTestMoney(client, over);
      expect(refused.statusCode, country).toBe(409);
      expect(refused.json().error.code).toBe('daily_limit_exceeded');
      expect(refused.json().error.message).toMatch(
        /^Test money is limited to .+ a day\. You can add .+0 more today\.$/,
      );
      const balance = (await client.get('/api/v1/wallet')).json();
      const addedMinor = requests.reduce(
        (sum, amount) => sum + BigInt(amount.replace('.', '')),
        0n,
      );
      expect(balance.balanceMinor, country).toBe(addedMinor.toString());
    }
  });

  it('does not exist outside the sandbox', async () => {
    const production = await buildTestApp(db, { COFFER_SANDBOX: '0' });
    try {
      const { client } = await signedUpClient(production);
      const response = await addTestMoney(client, '1.00');
      expect(response.statusCode).toBe(404);
      expect((await client.get('/api/v1/wallet/test-money')).statusCode).toBe(404);
      expect((await client.get('/api/v1/wallet')).json().balanceMinor).toBe('0');
    } finally {
      await production.close();
    }
  });
});

describe('live events', () => {
  it('tells the customer when test money or a staff deposit reaches their wallet', async () => {
    const { client, user } = await signedUpClient(app);
    const afterTestMoney = nextEventFor(user.id, 'wallet');
    const bellAfterTestMoney = nextEventFor(user.id, 'notifications');
    await addTestMoney(client, '5.00');
    expect(await afterTestMoney).toEqual({ userId: user.id, topics: ['wallet'] });
    expect(await bellAfterTestMoney).toEqual({ userId: user.id, topics: ['notifications'] });
    // In the bell like every money in; not emailed: the customer added it themselves.
    const bell = (await client.get('/api/v1/notifications')).json();
    expect(bell.items.map((item: { text: string }) => item.text)).toContain(
      '$5.00 of sandbox test money was added to your account.',
    );
    expect(bell.unreadCount).toBeGreaterThan(0);
    const afterDeposit = nextEventFor(user.id, 'wallet');
    const notified = nextEventFor(user.id, 'notifications');
    await admin.client.post(
      `/api/v1/admin/users/${user.id}/deposits`,
      { amount: '7.00', reason: 'Cash at the branch' },
      { 'idempotency-key': `wallet-live-${Date.now()}` },
    );
    expect(await afterDeposit).toEqual({ userId: user.id, topics: ['wallet', 'money-requests'] });
    expect(await notified).toEqual({ userId: user.id, topics: ['notifications'] });
  });

  it('tells the customer when staff freeze their account', async () => {
    const { user } = await signedUpClient(app);
    const afterFreeze = nextEventFor(user.id, 'customer');
    await admin.client.post(`/api/v1/admin/users/${user.id}/freeze`, { reason: 'Checking' });
    expect(await afterFreeze).toEqual({ userId: user.id, topics: ['customer'] });
  });
});
