// Quick Pay in one round trip (ADR 057): a session this process knows pays in one statement
// that reads the session, spends the request limit and moves the money; what that
// statement refuses is refused as on every other route.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import type { TestClient } from '../../../test/http.ts';
import { quickPay } from '../../../test/transfers.ts';
import type { Database } from '../../db/client.ts';
import { queuedEmail } from '../../platform/mail.ts';

const requestsPerMinute = 4;

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  {
    checksAfterEach: 'money-out',
    env: { COFFER_MONEY_REQUESTS_PER_MINUTE: String(requestsPerMinute) },
  },
);

/** Any signed-in request: the API reads the session and remembers whose it is. */
async function signedInRequest(client: TestClient): Promise<void> {
  expect((await client.get('/api/v1/transfers')).statusCode).toBe(200);
}

/** Work a handler may still do after its answer was sent (the answer is not the end). */
const afterAnswerMs = 200;

/** The statements the API sends while `act` runs, and after it for a moment. */
async function statementsDuring(act: () => Promise<unknown>): Promise<string[]> {
  const spy = vi.spyOn(db, 'query');
  try {
    await act();
    await new Promise((resolve) => setTimeout(resolve, afterAnswerMs));
    return spy.mock.calls.map(([text]) => text).filter((text) => !text.includes('pg_notify'));
  } finally {
    spy.mockRestore();
  }
}

async function transfersFrom(customer: TestCustomer): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM transfers WHERE sender_user_id = $1',
    [customer.user.id],
  );
  return found.rows[0]?.count ?? 0;
}

async function requestsSpent(customer: TestCustomer): Promise<number> {
  const found = await db.query<{ attempt_count: number }>(
    `SELECT attempt_count FROM attempt_counters
      WHERE key_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [`rate-limit POST /api/v1/transfers:user:${customer.user.id}`],
  );
  return found.rows[0]?.attempt_count ?? 0;
}

describe('Quick Pay in one round trip', () => {
  it('pays from a known session in one statement', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    await signedInRequest(sender.client);
    const statements = await statementsDuring(async () => {
      const paid = await quickPay(sender.client, {
        recipient: recipient.wallet.number,
        amount: '5.00',
      });
      expect(paid.statusCode).toBe(201);
    });
    expect(statements).toEqual([expect.stringContaining('quick_pay_caught')]);
    expect(await transfersFrom(sender)).toBe(1);
    expect(await requestsSpent(sender)).toBe(1);
  });

  it('spends the request limit on refused payments too, then refuses with 429', async () => {
    const sender = await createCustomer(app);
    const recipient = await createCustomer(app);
    await signedInRequest(sender.client);
    for (let attempt = 0; attempt < requestsPerMinute; attempt += 1) {
      const refused = await quickPay(sender.client, {
        recipient: recipient.wallet.number,
        amount: '1.00',
      });
      expect(refused.json().error.code).toBe('insufficient_funds');
    }
    expect(await requestsSpent(sender)).toBe(requestsPerMinute);
    const over = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '1.00',
    });
    expect(over.statusCode).toBe(429);
    expect(await transfersFrom(sender)).toBe(0);
  });

  it.each([
    ['revoked', 'UPDATE sessions SET revoked_at = now() WHERE user_id = $1'],
    ['expired', "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1"],
  ])('answers a %s session 401 and posts nothing, whatever the body', async (_state, sql) => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    await signedInRequest(sender.client);
    await db.query(sql, [sender.user.id]);
    const body = { recipient: recipient.wallet.number, amount: '5.00' };
    expect((await quickPay(sender.client, body)).statusCode).toBe(401);
    expect((await quickPay(sender.client, { ...body, amount: 'lots' })).statusCode).toBe(401);
    const withoutKey = await sender.client.post('/api/v1/transfers', body);
    expect(withoutKey.statusCode).toBe(401);
    expect(await transfersFrom(sender)).toBe(0);
    const keys = await db.query('SELECT 1 FROM idempotency_keys WHERE scope = $1', [
      `customer:${sender.user.id}`,
    ]);
    expect(keys.rows).toEqual([]);
  });

  it('refuses a session that must change its password, as the hook would, and pays nothing', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    await signedInRequest(sender.client);
    await db.query('UPDATE users SET must_change_password = true WHERE id = $1', [sender.user.id]);
    const refused = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '5.00',
    });
    expect(refused.json().error.code).toBe('password_change_required');
    expect(await transfersFrom(sender)).toBe(0);
  });

  it('tells the recipient in their language (de) and the sender in theirs (ja)', async () => {
    const sender = await createCustomer(app, { balance: '50.00' });
    const recipient = await createCustomer(app);
    for (const [customer, language] of [
      [sender, 'ja'],
      [recipient, 'de'],
    ] as const) {
      const chosen = await customer.client.request('PUT', '/api/v1/profile/language', {
        language,
      });
      expect(chosen.statusCode).toBe(200);
    }
    const paid = await quickPay(sender.client, {
      recipient: recipient.wallet.number,
      amount: '12.50',
    });
    expect(paid.statusCode).toBe(201);
    const bellText = async (customer: TestCustomer, kind: string) => {
      const bell = await customer.client.get('/api/v1/notifications');
      const items = bell.json().items as { kind: string; text: string }[];
      return items.find((item) => item.kind === kind)?.text;
    };
    expect(await bellText(recipient, 'money_received')).toBe(
      'Sie haben 12,50\u00a0$ per Quick Pay erhalten.',
    );
    expect(await bellText(sender, 'money_sent')).toBe('Quick Payで$12.50を送金しました。');
    const queued = await db.query<{
      to_address: string;
      subject: string;
      text_body: string;
      send_in_language: string | null;
    }>(
      'SELECT to_address, subject, text_body, send_in_language FROM outbox_emails WHERE to_address = $1 AND send_in_language IS NOT NULL',
      [recipient.body.email],
    );
    const [row] = queued.rows;
    if (!row) throw new Error('the recipient is emailed');
    const email = queuedEmail(row);
    expect(email.subject).toBe('Sie haben 12,50\u00a0$ per Quick Pay erhalten.');
    expect(email.text).toContain('In Coffer ansehen: ');
  });
});
