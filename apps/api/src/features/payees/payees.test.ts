import { recipientRefusedMessage } from '@coffer/contracts/recipient';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { lastEmailTo, newIdempotencyKey } from '../../../test/http.ts';
import { bankDestination, lastStepUpCode } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp((opened) => {
  ({ app, db } = opened);
});

type Target = Record<string, unknown>;

function challenge(customer: TestCustomer, target: Target) {
  return customer.client.post('/api/v1/step-up/challenges', { purpose: 'payee', target });
}

function add(customer: TestCustomer, body: object, key = newIdempotencyKey()) {
  return customer.client.post('/api/v1/payees', body, { 'idempotency-key': key });
}

/** Asks for the code for `target` and adds it with that code. */
async function addWithCode(customer: TestCustomer, nickname: string, target: Target) {
  const started = await challenge(customer, target);
  expect(started.statusCode, started.body).toBe(200);
  const stepUpCode = await lastStepUpCode(app, customer.body.email);
  return add(customer, { nickname, target, stepUpCode });
}

async function payeeCount(userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM payees WHERE user_id = $1',
    [userId],
  );
  return found.rows[0]?.count ?? -1;
}

async function payeeAddedEvents(userId: string): Promise<number> {
  const found = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM audit_events WHERE subject_user_id = $1 AND action = 'payee_added'`,
    [userId],
  );
  return found.rows[0]?.count ?? -1;
}

describe('adding a payee', () => {
  it('needs the step-up code, saves the payee once per key and sends the security email', async () => {
    const customer = await createCustomer(app);
    const friend = await createCustomer(app);
    const target = { kind: 'coffer', recipient: ` ${friend.body.email.toUpperCase()} ` };

    const withoutCode = await add(customer, { nickname: 'Friend', target });
    expect(withoutCode.statusCode).toBe(400);
    expect(withoutCode.json().error.code).toBe('step_up_required');
    expect(await payeeCount(customer.user.id)).toBe(0);

    await challenge(customer, target);
    const stepUpCode = await lastStepUpCode(app, customer.body.email);
    expect((await lastEmailTo(db, customer.body.email)).text).toContain('to add a new payee');
    const key = newIdempotencyKey();
    const added = await add(customer, { nickname: '  Friend  ', target, stepUpCode }, key);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      nickname: 'Friend',
      target: { kind: 'coffer', recipient: friend.body.email.toLowerCase() },
    });
    const again = await add(customer, { nickname: '  Friend  ', target, stepUpCode }, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(added.json());
    expect(await payeeCount(customer.user.id)).toBe(1);

    const mail = await lastEmailTo(db, customer.body.email);
    expect(mail.subject).toMatch(/^A new payee was added to your .+ account$/);
    expect(mail.text).toContain(`"Friend", Coffer customer ${friend.body.email.toLowerCase()}`);
    expect(mail.text).toContain('If it was not you');
    expect(await payeeAddedEvents(customer.user.id)).toBe(1);

    const listed = await customer.client.get('/api/v1/payees');
    expect(listed.json().items).toEqual([added.json()]);
  });

  it('refuses a wrong code, and a code sent for another payee', async () => {
    const customer = await createCustomer(app);
    const friend = await createCustomer(app);
    const target = { kind: 'coffer', recipient: friend.wallet.number };
    await challenge(customer, target);
    const code = await lastStepUpCode(app, customer.body.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await add(customer, { nickname: 'Friend', target, stepUpCode: wrong });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('wrong_code');

    const other = { kind: 'bill', category: 'water', billerReference: 'W-1' };
    const forOther = await add(customer, { nickname: 'Water', target: other, stepUpCode: code });
    expect(forOther.json().error.code).toBe('wrong_code');
    expect(await payeeCount(customer.user.id)).toBe(0);

    const right = await add(customer, { nickname: 'Friend', target, stepUpCode: code });
    expect(right.statusCode, right.body).toBe(201);
  });

  it('refuses an unknown recipient as Quick Pay does, spending a look-up, before any code', async () => {
    const customer = await createCustomer(app);
    const euro = await createCustomer(app, { country: 'DE' });
    for (const recipient of ['nobody@example.com', euro.wallet.number]) {
      const refused = await challenge(customer, { kind: 'coffer', recipient });
      expect(refused.statusCode, recipient).toBe(404);
      expect(refused.json().error).toEqual({
        code: 'recipient_refused',
        message: recipientRefusedMessage,
      });
    }
    const self = await challenge(customer, { kind: 'coffer', recipient: customer.wallet.number });
    expect(self.json().error.code).toBe('own_account');
    // Both refusals spent look-ups: 28 more guesses are answered, the next is refused.
    for (let guess = 0; guess < 28; guess += 1) {
      const refused = await customer.client.post('/api/v1/transfers/recipient-preview', {
        recipient: `guess${guess}@example.com`,
      });
      expect(refused.statusCode).toBe(404);
    }
    const spent = await challenge(customer, { kind: 'coffer', recipient: euro.body.email });
    expect(spent.json().error.code).toBe('too_many_attempts');
  });

  it('refuses a payee saved already and the 201st payee, with clear messages', async () => {
    const customer = await createCustomer(app);
    const target = { kind: 'payout', destination: bankDestination };
    expect((await addWithCode(customer, 'My bank', target)).statusCode).toBe(201);
    const twin = await challenge(customer, {
      ...target,
      destination: { ...bankDestination, bankName: 'Other' },
    });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error).toEqual({
      code: 'payee_exists',
      message: 'You have already saved this payee.',
    });

    await db.query(
      `INSERT INTO payees (id, user_id, nickname, kind, target, target_key)
       SELECT gen_random_uuid(), $1, 'Bill ' || n, 'bill',
              jsonb_build_object('kind', 'bill', 'category', 'rent', 'billerReference', 'R' || n),
              'bill:rent:R' || n
         FROM generate_series(1, 199) AS n`,
      [customer.user.id],
    );
    const full = await challenge(customer, {
      kind: 'bill',
      category: 'rent',
      billerReference: 'NEW',
    });
    expect(full.statusCode).toBe(409);
    expect(full.json().error).toEqual({
      code: 'payee_limit_reached',
      message: 'You can save at most 200 payees. Delete one you no longer use first.',
    });
    expect(await payeeCount(customer.user.id)).toBe(200);
  });

  it('keeps a hostile nickname as text, and refuses control characters and 41 characters', async () => {
    const customer = await createCustomer(app);
    const hostile = `<img src=x onerror=alert(1)>'; DROP TABLE payees;--`.slice(0, 40);
    const target = { kind: 'bill', category: 'electricity', billerReference: '12345' };
    const added = await addWithCode(customer, hostile, target);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().nickname).toBe(hostile);

    for (const nickname of ['', '   ', 'a'.repeat(41), 'Bad\u0000name', 'Evil\u202Ename']) {
      const refused = await add(customer, { nickname, target, stepUpCode: '123456' });
      expect(refused.statusCode, JSON.stringify(nickname)).toBe(400);
      expect(refused.json().error.code).toBe('validation_failed');
    }
  });

  it('limits adds to 20 an hour per customer, whatever their answer', async () => {
    const customer = await createCustomer(app);
    const body = {
      nickname: 'Rent',
      target: { kind: 'bill', category: 'rent', billerReference: 'FLAT-1' },
    };
    for (let attempt = 0; attempt < 20; attempt += 1) {
      expect((await add(customer, body)).json().error.code).toBe('step_up_required');
    }
    const limited = await add(customer, body);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    // The list is another route, with no such limit.
    expect((await customer.client.get('/api/v1/payees')).statusCode).toBe(200);
  });

  it('refuses a crypto address whose checksum is wrong', async () => {
    const customer = await createCustomer(app);
    const refused = await challenge(customer, {
      kind: 'payout',
      destination: { method: 'crypto', coin: 'ETH', address: `0x${'aB'.repeat(20)}` },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('validation_failed');
  });
});

describe('renaming and deleting payees', () => {
  it('renames and deletes the customer’s own payee; another customer’s answers 404', async () => {
    const owner = await createCustomer(app);
    const other = await createCustomer(app);
    const added = await addWithCode(owner, 'Rent', {
      kind: 'bill',
      category: 'rent',
      billerReference: 'FLAT-7',
    });
    const id = added.json().id as string;

    const stranger = await other.client.request('PATCH', `/api/v1/payees/${id}`, {
      nickname: 'Mine',
    });
    expect(stranger.statusCode).toBe(404);
    expect((await other.client.request('DELETE', `/api/v1/payees/${id}`)).statusCode).toBe(404);
    expect((await other.client.get('/api/v1/payees')).json().items).toEqual([]);

    const renamed = await owner.client.request('PATCH', `/api/v1/payees/${id}`, {
      nickname: ' Landlord ',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().nickname).toBe('Landlord');

    expect((await owner.client.request('DELETE', `/api/v1/payees/${id}`)).statusCode).toBe(204);
    expect((await owner.client.request('DELETE', `/api/v1/payees/${id}`)).statusCode).toBe(404);
    expect(await payeeCount(owner.user.id)).toBe(0);
    const actions = await db.query<{ action: string }>(
      'SELECT action FROM audit_events WHERE subject_user_id = $1 ORDER BY created_at',
      [owner.user.id],
    );
    expect(actions.rows.map((row) => row.action)).toEqual(
      expect.arrayContaining(['payee_added', 'payee_renamed', 'payee_deleted']),
    );
  });
});
