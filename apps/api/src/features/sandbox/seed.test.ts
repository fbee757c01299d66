import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { demoUsers, describeDemoUsers, seedSandbox } from './seed.ts';

let db: Database;
let app: FastifyInstance;

useTestApp((opened) => {
  ({ app, db } = opened);
});

async function walletBalance(email: string): Promise<{ currency: string; balanceMinor: bigint }> {
  const wallet = await db.query<{ id: AccountId }>(
    "SELECT a.id FROM accounts a JOIN users u ON u.id = a.owner_user_id WHERE u.email = $1 AND a.kind = 'customer'",
    [email],
  );
  const id = wallet.rows[0]?.id;
  if (!id) throw new Error(`no wallet for ${email}`);
  return app.ledger.balance(id);
}

it('seeds two admins, a support user and three customers with history, once', async () => {
  await seedSandbox(db, app.ledger);
  await seedSandbox(db, app.ledger);
  const users = await db.query<{ email: string; role: string }>(
    'SELECT email, role FROM users ORDER BY email',
  );
  expect(users.rows).toEqual([
    { email: 'admin@coffer.test', role: 'admin' },
    { email: 'alice@coffer.test', role: 'customer' },
    { email: 'bruno@coffer.test', role: 'customer' },
    { email: 'checker@coffer.test', role: 'admin' },
    { email: 'support@coffer.test', role: 'support' },
    { email: 'yuki@coffer.test', role: 'customer' },
  ]);
  expect(await walletBalance('alice@coffer.test')).toMatchObject({
    currency: 'USD',
    balanceMinor: 150_480n,
  });
  expect(await walletBalance('bruno@coffer.test')).toMatchObject({
    currency: 'EUR',
    balanceMinor: 77_001n,
  });
  expect(await walletBalance('yuki@coffer.test')).toMatchObject({
    currency: 'JPY',
    balanceMinor: 146_800n,
  });
  await app.ledger.assertInvariants();
});

it('lets every demo user sign in with the printed credentials', async () => {
  await seedSandbox(db, app.ledger);
  const printed = describeDemoUsers(demoUsers);
  for (const demo of demoUsers) {
    expect(printed).toContain(`${demo.email.padEnd(22)} ${demo.password}`);
    const login = await new TestClient(app).post('/api/v1/auth/login', {
      email: demo.email,
      password: demo.password,
    });
    expect(login.json()).toMatchObject({
      status: 'signed_in',
      user: { role: demo.role, isEmailVerified: true },
    });
  }
});

it('lets the second demo admin approve what the first prepared over the approval threshold', async () => {
  await seedSandbox(db, app.ledger);
  const signIn = async (email: string) => {
    const demo = demoUsers.find((user) => user.email === email);
    const client = new TestClient(app);
    await client.post('/api/v1/auth/login', { email, password: demo?.password });
    return client;
  };
  const [maker, checker] = [await signIn('admin@coffer.test'), await signIn('checker@coffer.test')];
  const alice = await db.query<{ id: string }>(
    "SELECT id FROM users WHERE email = 'alice@coffer.test'",
  );
  const pending = await maker.post(
    `/api/v1/admin/users/${alice.rows[0]?.id}/deposits`,
    { amount: '20000.00', reason: 'Large wire' },
    { 'idempotency-key': 'sandbox-approval' },
  );
  expect(pending.json()).toMatchObject({
    status: 'pending_approval',
    eligibleCheckers: [{ username: 'Demo Checker' }],
  });
  const approved = await checker.post(
    `/api/v1/admin/money-requests/${pending.json().id}/approve`,
    {},
  );
  expect(approved.json().status).toBe('posted');
});
