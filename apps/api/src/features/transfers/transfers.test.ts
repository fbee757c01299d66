import type { LiveEvent } from '@coffer/contracts/events';
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { deposit } from '../../../test/factories.ts';
import {
  lastEmailTo,
  newIdempotencyKey,
  staffClient,
  strongPassword,
  type TestClient,
  stepUpTraces as traces,
} from '../../../test/http.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { attemptKeyHash } from '../../platform/attempt-counters.ts';
import { failureLimits } from '../../platform/rate-limits.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(
  async (opened) => {
    ({ app, db } = opened);
    admin = await staffClient(app, 'admin');
  },
  { checksAfterEach: 'money-out' },
);

async function balanceMinor(walletId: AccountId): Promise<bigint> {
  return (await app.ledger.balance(walletId)).balanceMinor;
}

async function transferEntryCount(walletId: AccountId): Promise<number> {
  const found = await db.query<{ count: bigint }>(
    `SELECT count(*)::bigint AS count FROM journal_lines l
       JOIN journal_entries e ON e.id = l.entry_id
      WHERE l.account_id = $1 AND e.kind = 'transfer'`,
    [walletId],
  );
  return Number(found.rows[0]?.count ?? 0n);
}

/** The 6-digit code of the newest step-up email to an address. */
async function emailedCode(email: string): Promise<string> {
  const mail = await lastEmailTo(db, email);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in: ${mail.text}`);
  return code;
}

/** Asks for the step-up of this Quick Pay: the challenge checks the payment first. */
function challenge(client: TestClient, body: { recipient: string; amount: string }) {
  return client.post('/api/v1/step-up/challenges', { purpose: 'transfer', ...body });
}

async function startStepUp(
  client: TestClient,
  body: { recipient: string; amount: string },
): Promise<void> {
  const started = await challenge(client, body);
  expect(started.statusCode, started.body).toBe(200);
}

function stepUpTraces(customer: TestCustomer) {
  return traces(db, { id: customer.user.id, email: customer.body.email });
}

const recipientRefused = {
  code: 'recipient_refused',
  message:
    "We can't send to this recipient. Check the account number or email; Quick Pay works only between Coffer wallets in the same currency.",
};

function preview(client: TestClient, recipient: string) {
  return client.post('/api/v1/transfers/recipient-preview', { recipient });
}

/** The database's mask_name, which every masked name the API sends comes from. */
async function maskName(username: string): Promise<string> {
  const masked = await db.query<{ masked: string }>('SELECT mask_name($1) AS masked', [username]);
  return masked.rows[0]?.masked ?? '';
}

describe('masked names', () => {
  it('keeps the first letter of each word', async () => {
    expect(await maskName('Alice Morgan')).toBe('A*** M***');
    expect(await maskName('  bob ')).toBe('b***');
    expect(await maskName('Émile  Zola-Dupont')).toBe('É*** Z***');
    expect(await maskName('\tÅsa\nLind ')).toBe('Å*** L***');
    expect(await maskName('   ')).toBe('');
  });
});

describe('recipient preview', () => {
  it('finds a customer by account number or email and shows the masked name and currency', async () => {
    const sender = await createCustomer(app);
    const recipient = await createCustomer(app);
    const expected = { maskedName: await maskName(recipient.body.username), currency: 'USD' };

    const byNumber = await preview(sender.client, recipient.wallet.number);
    expect(byNumber.statusCode).toBe(200);
    expect(byNumber.json()).toEqual(expected);
    const byEmail = await preview(sender.client, ` ${recipient.body.email.toUpperCase()} `);
    expect(byEmail.json()).toEqual(expected);
  });

  it('answers nobody, staff and another currency alike, and refuses the sender themself', async () => {
    const sender = await createCustomer(app);
    const euroCustomer = await createCustomer(app, { country: 'DE' });
    for (const typed of [
      'nobody-here@example.com',
      '0000000000',
      admin.user.email,
      euroCustomer.body.email,
      euroCustomer.wallet.number,
    ]) {
      const refused = await preview(sender.client, typed);
      expect(refused.statusCode, typed).toBe(404);
      expect(refused.json(), typed).toEqual({ error: recipientRefused });
    }

    const self = await preview(sender.client, sender.wallet.number);
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toMatchObject({
      code: 'own_account',
      message: 'You cannot send money to yourself.',
    });

    const malformed = await preview(sender.client, '12345');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields.recipient).toBe(
      'Enter a 10-digit account number or an email address',
    );
  });

  it('limits look-ups per customer, in parallel too, so customers cannot be enumerated', async () => {
    const sender = await createCustomer(app);
    const answers = await Promise.all(
      Array.from({ length: 31 }, (_, attempt) =>
        preview(sender.client, `guess${attempt}@example.com`),
      ),
    );
    const codes = answers.map((answer) => answer.json().error.code);
    expect(codes.filter((code) => code === 'recipient_refused')).toHaveLength(30);
    expect(codes.filter((code) => code === 'too_many_attempts')).toHaveLength(1);
  });

  it('counts Quick Pays refused for their recipient against the same limit', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    // Paying a real recipient does not use look-ups up.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const sent = await quickPay(sender.client, {
        recipient: recipient.wallet.number,
        amount: '1.00',
      });
      expect(sent.statusCode).toBe(201);
    }
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const refused = await quickPay(sender.client, {
        recipient: `guess${attempt}@example.com`,
        amount: '1.00',
      });
      expect(refused.json(), `try ${attempt}`).toEqual({ error: recipientRefused });
    }
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await preview(sender.client, `more${attempt}@example.com`)).statusCode).toBe(404);
    }
    expect((await preview(sender.client, recipient.body.email)).json().error.code).toBe(
      'too_many_attempts',
    );
    const refusedPay = await quickPay(sender.client, {
      recipient: 'x@example.com',
      amount: '1.00',
    });
    expect(refusedPay.json().error.code).toBe('too_many_attempts');
    expect(await balanceMinor(sender.wallet.id)).toBe(4700n);
  });
});

describe('Quick Pay', () => {
  it('moves the money exactly once, records it and tells both customers', async () => {
    const sender = await createCustomer(app, { balance: '100.00' });
    const recipient = await createCustomer(app);
    const events: LiveEvent[] = [];
    const stopListening = app.eventHub.subscribe((event) => events.push(event));

    const sent = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '25.50',
      note: 'Lunch',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({
      amountMinor: '2550',
      currency: 'USD',
      recipientMaskedName: await maskName(recipient.body.username),
      note: 'Lunch',
    });
    expect(await balanceMinor(sender.wallet.id)).toBe(7450n);
    expect(await balanceMinor(recipient.wallet.id)).toBe(2550n);
    const listed = await recipient.client.get('/api/v1/transfers');
    expect(listed.json().items[0]).toMatchObject({
      entryId: sent.json().entryId,
      createdAt: sent.json().createdAt,
    });

    const entry = await db.query<{ kind: string; memo: string; actor_user_id: string }>(
      'SELECT kind, memo, actor_user_id FROM journal_entries WHERE id = $1',
      [sent.json().entryId],
    );
    expect(entry.rows).toEqual([
      expect.objectContaining({ kind: 'transfer', memo: 'Lunch', actor_user_id: sender.user.id }),
    ]);
    const record = await db.query(
      'SELECT sender_user_id, recipient_user_id, amount_minor, currency, note FROM transfers WHERE entry_id = $1',
      [sent.json().entryId],
    );
    expect(record.rows).toEqual([
      {
        sender_user_id: sender.user.id,
        recipient_user_id: recipient.user.id,
        amount_minor: 2550n,
        currency: 'USD',
        note: 'Lunch',
      },
    ]);

    await expect
      .poll(() => events.map((event) => event.userId).sort())
      .toEqual([sender.user.id, recipient.user.id].sort());
    stopListening();
    // Both bells show the payment too.
    const topicsOf = (userId: string) => events.find((event) => event.userId === userId)?.topics;
    expect(topicsOf(sender.user.id)).toEqual(['wallet', 'transfers', 'notifications']);
    expect(topicsOf(recipient.user.id)).toEqual(['wallet', 'transfers', 'notifications']);
  });

  it('accepts an email as recipient and writes "Quick Pay" when there is no note', async () => {
    const sender = await createCustomer(app, { balance: '10.00' });
    const recipient = await createCustomer(app);
    const sent = await quickPay(sender.client, {
      recipient: recipient.body.email,
      amount: '10',
      note: '  ',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().note).toBeNull();
    const entry = await db.query<{ memo: string }>(
      'SELECT memo FROM journal_entries WHERE id = $1',
      [sent.json().entryId],
    );
    expect(entry.rows[0]?.memo).toBe('Quick Pay');
    expect(await balanceMinor(sender.wallet.id)).toBe(0n);
  });

  it('answers a retry with the same key from memory, and refuses the key for another body', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    const key = newIdempotencyKey();
    const body = { recipient: recipient.wallet.number, amount: '5.00' };
    const first = await quickPay(sender.client, body, key);
    const retry = await quickPay(sender.client, body, key);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await transferEntryCount(sender.wallet.id)).toBe(1);
    expect(await balanceMinor(recipient.wallet.id)).toBe(500n);

    const changed = await quickPay(sender.client, { ...body, amount: '6.00' }, key);
    expect(changed.statusCode).toBe(422);
    expect(changed.json().error.code).toBe('idempotency_key_reused');
    const noKey = await sender.client.post('/api/v1/transfers', body);
    expect(noKey.json().error.code).toBe('idempotency_key_required');
    expect(await balanceMinor(recipient.wallet.id)).toBe(500n);
  });

  it('refuses amounts that are not a positive number in the currency’s precision', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    for (const amount of ['abc', '0', '0.00', '1.234', '-5', '1e3', '']) {
      const refused = await quickPay(sender.client, { recipient: recipient.wallet.number, amount });
      expect(refused.statusCode, amount).toBe(400);
      expect(refused.json().error.fields.amount, amount).toBe('Invalid amount');
    }
    const yenSender = await createCustomer(app, { country: 'JP', balance: '1000' });
    const yenRecipient = await createCustomer(app, { country: 'JP' });
    const fraction = await quickPay(yenSender.client, {
      recipient: yenRecipient.wallet.number,
      amount: '1.5',
    });
    expect(fraction.json().error).toMatchObject({
      message: 'Invalid amount',
      fields: { amount: 'Invalid amount' },
    });
    expect(await balanceMinor(recipient.wallet.id)).toBe(0n);
  });

  it('refuses a recipient in another currency as it refuses nobody, revealing neither', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const euroRecipient = await createCustomer(app, { country: 'DE' });
    const refused = await quickPay(sender.client, {
      recipient: euroRecipient.wallet.number,
      amount: '5.00',
    });
    const nobody = await quickPay(sender.client, {
      recipient: 'nobody@example.com',
      amount: '5.00',
    });
    const staff = await quickPay(sender.client, { recipient: admin.user.email, amount: '5.00' });
    for (const answer of [refused, nobody, staff]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: recipientRefused });
    }
    expect(await balanceMinor(sender.wallet.id)).toBe(5000n);
  });

  it('refuses sending to oneself and to nobody', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const self = await quickPay(sender.client, { recipient: sender.body.email, amount: '1.00' });
    expect(self.json().error).toMatchObject({
      code: 'own_account',
      message: 'You cannot send money to yourself.',
    });
    const nobody = await quickPay(sender.client, { recipient: '0000000000', amount: '1.00' });
    expect(nobody.json().error.code).toBe('recipient_refused');
    expect(await balanceMinor(sender.wallet.id)).toBe(5000n);
  });

  it('refuses more than the available balance', async () => {
    const sender = await createCustomer(app, { balance: '20.00' });
    const recipient = await createCustomer(app);
    const refused = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '20.01',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({
      code: 'insufficient_funds',
      message: 'Insufficient balance for withdrawal',
    });
    expect(await transferEntryCount(sender.wallet.id)).toBe(0);
  });

  it('keeps a refusal under its key: a retry is told the same even once the money is there', async () => {
    const sender = await createCustomer(app, { balance: '20.00' });
    const recipient = await createCustomer(app);
    const key = newIdempotencyKey();
    const body = { recipient: recipient.wallet.number, amount: '30.00' };
    const refused = await quickPay(sender.client, body, key);
    expect(refused.json().error.code).toBe('insufficient_funds');

    await deposit(app.ledger, sender.wallet.id, 2000n);
    const retry = await quickPay(sender.client, body, key);
    expect(retry.statusCode).toBe(409);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(refused.json());
    expect(await balanceMinor(recipient.wallet.id)).toBe(0n);

    const fresh = await quickPay(sender.client, body);
    expect(fresh.statusCode).toBe(201);
    expect(await balanceMinor(recipient.wallet.id)).toBe(3000n);
  });
});

describe('who may send', () => {
  it('refuses a frozen sender with the staff’s reason, while a frozen recipient still receives', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app, { balance: '50.00' });
    const frozen = await admin.client.post(`/api/v1/admin/users/${sender.user.id}/freeze`, {
      reason: 'Card reported stolen',
    });
    expect(frozen.statusCode).toBe(200);
    await admin.client.post(`/api/v1/admin/users/${recipient.user.id}/freeze`, {
      reason: 'Identity check pending',
    });

    const refused = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '1.00',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({
      code: 'account_frozen',
      message:
        'Transactions are disabled on your account: Card reported stolen. Contact support to have them re-enabled.',
    });

    const fromRecipient = await quickPay(recipient.client, {
      recipient: sender.wallet.number,
      amount: '1.00',
    });
    expect(fromRecipient.json().error.code).toBe('account_frozen');

    await admin.client.post(`/api/v1/admin/users/${sender.user.id}/unfreeze`, {
      reason: 'Card found',
    });
    const toFrozen = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '1.00',
    });
    expect(toFrozen.statusCode).toBe(201);
    expect(await balanceMinor(recipient.wallet.id)).toBe(5100n);
  });

  it('refuses a customer whose email is not verified', async () => {
    const sender = await createCustomer(app, { balance: '50.00', isEmailVerified: false });
    const recipient = await createCustomer(app);
    const refused = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '1.00',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('email_not_verified');
    expect(await balanceMinor(sender.wallet.id)).toBe(5000n);
  });

  it('holds level 1 to 500.00 a day', async () => {
    const sender = await createCustomer(app, { balance: '1000.00' });
    const recipient = await createCustomer(app);
    const body = { recipient: recipient.wallet.number, amount: '300.00' };
    expect((await quickPay(sender.client, body)).statusCode).toBe(201);
    const refused = await quickPay(sender.client, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({
      code: 'daily_limit_exceeded',
      message: 'This would go over your daily limit of $500.00. You can still send $200.00 today.',
    });
    expect((await quickPay(sender.client, { ...body, amount: '200.00' })).statusCode).toBe(201);
    expect(await balanceMinor(recipient.wallet.id)).toBe(50_000n);
  });
});

describe('checks before codes', () => {
  it('refuses a level-1 customer sending 1,000.00 with the limit message, and sends no code', async () => {
    const sender = await createCustomer(app, { balance: '2000.00' });
    const recipient = await createCustomer(app);
    const body = { recipient: recipient.wallet.number, amount: '1000.00' };
    const limitError = {
      code: 'daily_limit_exceeded',
      message: 'This would go over your daily limit of $500.00. You can still send $500.00 today.',
    };
    const refusedChallenge = await challenge(sender.client, body);
    expect(refusedChallenge.statusCode).toBe(409);
    expect(refusedChallenge.json()).toEqual({ error: limitError });
    // Without a code, the payment itself gives the same refusal, not step_up_required.
    const withoutCode = await quickPay(sender.client, body);
    expect(withoutCode.json()).toEqual({ error: limitError });
    expect(await stepUpTraces(sender)).toEqual({ codes: 0, emails: 0 });
  });

  it('refuses every reason that needs no code before sending one: no code stored, no email', async () => {
    const recipient = await createCustomer(app);
    const cases: {
      name: string;
      setUp: () => Promise<TestCustomer>;
      amount?: string;
      to?: string;
      code: string;
    }[] = [
      {
        name: 'frozen',
        setUp: async () => {
          const sender = await createCustomer(app, { balance: '2000.00', level: 2 });
          await admin.client.post(`/api/v1/admin/users/${sender.user.id}/freeze`, {
            reason: 'Checking a document',
          });
          return sender;
        },
        code: 'account_frozen',
      },
      {
        name: 'email not verified',
        setUp: () => createCustomer(app, { balance: '2000.00', level: 2, isEmailVerified: false }),
        code: 'email_not_verified',
      },
      {
        name: 'daily limit',
        setUp: () => createCustomer(app, { balance: '9000.00', level: 2 }),
        amount: '5000.01',
        code: 'daily_limit_exceeded',
      },
      {
        name: 'balance',
        setUp: () => createCustomer(app, { balance: '999.99', level: 2 }),
        code: 'insufficient_funds',
      },
      {
        name: 'recipient',
        setUp: () => createCustomer(app, { balance: '2000.00', level: 2 }),
        to: 'nobody-at-all@example.com',
        code: 'recipient_refused',
      },
      {
        name: 'limits not configured',
        setUp: () => createCustomer(app, { country: 'AF', balance: '2000', level: 2 }),
        code: 'limits_not_configured',
      },
    ];
    for (const { name, setUp, amount, to, code } of cases) {
      const sender = await setUp();
      const emailsBefore = (await stepUpTraces(sender)).emails;
      const body = { recipient: to ?? recipient.wallet.number, amount: amount ?? '1000.00' };
      const refusedChallenge = await challenge(sender.client, body);
      expect(refusedChallenge.json().error?.code, name).toBe(code);
      const withoutCode = await quickPay(sender.client, body);
      expect(withoutCode.json(), name).toEqual(refusedChallenge.json());
      expect(await stepUpTraces(sender), name).toEqual({ codes: 0, emails: emailsBefore });
    }
    expect(await balanceMinor(recipient.wallet.id)).toBe(0n);
  });
});

describe('below the step-up threshold', () => {
  /** The sender's recipient look-ups spent so far (attempt_counters), 0 when none. */
  async function lookupsSpent(customer: TestCustomer): Promise<number> {
    const keyHash = attemptKeyHash(failureLimits.recipientLookup, `customer:${customer.user.id}`);
    const found = await db.query<{ attempt_count: number }>(
      'SELECT attempt_count FROM attempt_counters WHERE key_hash = $1',
      [keyHash],
    );
    return found.rows[0]?.attempt_count ?? 0;
  }

  it('answers what the checks before codes answer, sender first, in the one statement', async () => {
    const recipient = await createCustomer(app);
    const nobody = 'nobody-at-all@example.com';
    const cases: {
      name: string;
      setUp: () => Promise<TestCustomer>;
      amount: string;
      code: string;
    }[] = [
      {
        name: 'frozen',
        setUp: async () => {
          const sender = await createCustomer(app, { balance: '50.00' });
          await admin.client.post(`/api/v1/admin/users/${sender.user.id}/freeze`, {
            reason: 'Checking a document',
          });
          return sender;
        },
        amount: '1.00',
        code: 'account_frozen',
      },
      {
        name: 'email not verified',
        setUp: () => createCustomer(app, { balance: '50.00', isEmailVerified: false }),
        amount: '1.00',
        code: 'email_not_verified',
      },
      {
        name: 'daily limit',
        setUp: () => createCustomer(app, { balance: '900.00' }),
        amount: '500.01',
        code: 'daily_limit_exceeded',
      },
      {
        name: 'balance',
        setUp: () => createCustomer(app, { balance: '0.99' }),
        amount: '1.00',
        code: 'insufficient_funds',
      },
    ];
    for (const { name, setUp, amount, code } of cases) {
      const sender = await setUp();
      const paid = await quickPay(sender.client, { recipient: nobody, amount });
      expect(paid.json().error?.code, name).toBe(code);
      expect(await lookupsSpent(sender), name).toBe(0);
      const checked = await challenge(sender.client, { recipient: nobody, amount });
      expect(paid.json(), name).toEqual(checked.json());
    }
    const sender = await createCustomer(app, { balance: '50.00' });
    const toNobody = await quickPay(sender.client, { recipient: nobody, amount: '1.00' });
    expect(toNobody.json()).toEqual({ error: recipientRefused });
    expect(await lookupsSpent(sender)).toBe(1);
    const toSelf = await quickPay(sender.client, {
      recipient: sender.wallet.number,
      amount: '1.00',
    });
    expect(toSelf.json().error.code).toBe('own_account');
    expect(await lookupsSpent(sender)).toBe(1);
    expect(await balanceMinor(recipient.wallet.id)).toBe(0n);
  });
});

describe('step-up at 1,000.00 and above', () => {
  it('asks for the emailed code, refuses a wrong one and spends the right one once', async () => {
    const sender = await createCustomer(app, { balance: '5000.00', level: 2 });
    const recipient = await createCustomer(app);
    const body = { recipient: recipient.wallet.number, amount: '1000.00' };

    const below = await quickPay(sender.client, { ...body, amount: '999.99' });
    expect(below.statusCode).toBe(201);

    const missing = await quickPay(sender.client, body);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'step_up_required',
      fields: { stepUpCode: 'Required' },
    });

    await startStepUp(sender.client, body);
    const code = await emailedCode(sender.body.email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const key = newIdempotencyKey();
    const wrong = await quickPay(sender.client, { ...body, stepUpCode: wrongCode }, key);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'wrong_code',
      message: 'Wrong verification code. Please try again.',
    });
    // The refusal did not use up the key: the same action goes through with the right code.
    const sent = await quickPay(sender.client, { ...body, stepUpCode: code }, key);
    expect(sent.statusCode).toBe(201);
    expect(await balanceMinor(recipient.wallet.id)).toBe(199_999n);

    const reused = await quickPay(sender.client, { ...body, stepUpCode: code });
    expect(reused.json().error.code).toBe('wrong_code');
    expect(await balanceMinor(recipient.wallet.id)).toBe(199_999n);
  });

  it('takes an emailed code only for the amount and recipient it named', async () => {
    const sender = await createCustomer(app, { balance: '5000.00', level: 2 });
    const recipient = await createCustomer(app);
    const other = await createCustomer(app);
    const body = { recipient: recipient.wallet.number, amount: '1000.00' };
    await startStepUp(sender.client, body);
    const { text } = await lastEmailTo(db, sender.body.email);
    expect(text).toMatch(
      new RegExp(
        `Your code to send USD\u00a01,000\\.00 to ${recipient.wallet.number} is \\d{6}\\.`,
      ),
    );
    const code = await emailedCode(sender.body.email);
    // A code phished for this payment, used for more money or for someone else: refused.
    for (const changed of [
      { ...body, amount: '4000.00' },
      { ...body, recipient: other.wallet.number },
    ]) {
      const refused = await quickPay(sender.client, { ...changed, stepUpCode: code });
      expect(refused.json().error).toMatchObject({
        code: 'wrong_code',
        fields: {
          stepUpCode: 'This code was sent for another amount or payee. Ask for a new code.',
        },
      });
    }
    expect(await balanceMinor(other.wallet.id)).toBe(0n);
    const sent = await quickPay(sender.client, { ...body, stepUpCode: code });
    expect(sent.statusCode, sent.body).toBe(201);
  });

  it('burns an emailed code after 5 wrong tries', async () => {
    const sender = await createCustomer(app, { balance: '5000.00', level: 2 });
    const recipient = await createCustomer(app);
    const body = { recipient: recipient.wallet.number, amount: '1500.00' };
    await startStepUp(sender.client, body);
    const code = await emailedCode(sender.body.email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await quickPay(sender.client, { ...body, stepUpCode: wrongCode });
      expect(wrong.json().error.code).toBe('wrong_code');
    }
    const tooLate = await quickPay(sender.client, { ...body, stepUpCode: code });
    expect(tooLate.json().error.code).toBe('wrong_code');
    expect(await balanceMinor(sender.wallet.id)).toBe(500_000n);

    await startStepUp(sender.client, body);
    const fresh = await quickPay(sender.client, {
      ...body,
      stepUpCode: await emailedCode(sender.body.email),
    });
    expect(fresh.statusCode).toBe(201);
  });

  it('takes the authenticator’s code from a customer who has one, once', async () => {
    const sender = await createCustomer(app, { balance: '5000.00', level: 3 });
    const recipient = await createCustomer(app);
    const setup = await sender.client.post('/api/v1/profile/totp/setup', {
      currentPassword: strongPassword,
    });
    const totp = new TOTP({ secret: setup.json().secret, digits: 6, period: 30 });
    const enabled = await sender.client.post('/api/v1/profile/totp/enable', {
      code: totp.generate(),
    });
    expect(enabled.statusCode).toBe(200);

    // Enabling used the current step; the next one is still inside the accepted window.
    const nextCode = totp.generate({ timestamp: Date.now() + 30_000 });
    const body = { recipient: recipient.wallet.number, amount: '2000.00', stepUpCode: nextCode };
    const sent = await quickPay(sender.client, body);
    expect(sent.statusCode).toBe(201);
    const again = await quickPay(sender.client, body);
    expect(again.json().error.code).toBe('wrong_code');
    expect(await balanceMinor(recipient.wallet.id)).toBe(200_000n);
  });
});

describe('transfer history', () => {
  it('lists a customer’s sent and received Quick Pays, newest first, a page at a time', async () => {
    const alice = await createCustomer(app, { balance: '100.00' });
    const bob = await createCustomer(app, { balance: '100.00' });
    await quickPay(alice.client, { recipient: bob.wallet.number, amount: '1.00', note: 'one' });
    await quickPay(bob.client, { recipient: alice.wallet.number, amount: '2.00', note: 'two' });
    await quickPay(alice.client, { recipient: bob.wallet.number, amount: '3.00' });

    const first = (await alice.client.get('/api/v1/transfers?limit=2')).json();
    expect(first.items).toEqual([
      expect.objectContaining({ direction: 'sent', amountMinor: '300', note: null }),
      expect.objectContaining({
        direction: 'received',
        amountMinor: '200',
        note: 'two',
        counterpartyMaskedName: await maskName(bob.body.username),
      }),
    ]);
    const second = (
      await alice.client.get(`/api/v1/transfers?limit=2&cursor=${first.nextCursor}`)
    ).json();
    expect(second.items).toEqual([
      expect.objectContaining({ direction: 'sent', amountMinor: '100', note: 'one' }),
    ]);
    expect(second.nextCursor).toBeNull();
  });

  it('shows nobody else’s transfers, and keeps idempotency keys per customer', async () => {
    const alice = await createCustomer(app, { balance: '100.00' });
    const bob = await createCustomer(app);
    const stranger = await createCustomer(app);
    const key = newIdempotencyKey();
    const body = { recipient: bob.wallet.number, amount: '4.00' };
    expect((await quickPay(alice.client, body, key)).statusCode).toBe(201);

    expect((await stranger.client.get('/api/v1/transfers')).json()).toEqual({
      items: [],
      nextCursor: null,
    });
    // The stranger's use of the same key is their own request: no replay of Alice's.
    const strangers = await quickPay(stranger.client, body, key);
    expect(strangers.headers['idempotent-replayed']).toBeUndefined();
    expect(strangers.json().error.code).toBe('insufficient_funds');
    expect(await balanceMinor(bob.wallet.id)).toBe(400n);
  });
});
