import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { TestClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import { type AccountId, type Posting, postBackDated } from '../../ledger/ledger.ts';
import { demoUsers, describeDemoUsers, seedSandbox } from './seed.ts';

let db: Database;
let app: FastifyInstance;

// A sandbox server, as `npm start` runs one on a fresh checkout.
useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { env: { COFFER_SANDBOX: '1' } },
);

const deps = () => ({ db, ledger: app.ledger, config: app.config, terms: app.terms });

async function walletOf(email: string): Promise<AccountId> {
  const wallet = await db.query<{ id: AccountId }>(
    "SELECT a.id FROM accounts a JOIN users u ON u.id = a.owner_user_id WHERE u.email = $1 AND a.kind = 'customer'",
    [email],
  );
  const id = wallet.rows[0]?.id;
  if (!id) throw new Error(`no wallet for ${email}`);
  return id;
}

async function walletBalance(email: string): Promise<{ currency: string; balanceMinor: bigint }> {
  return app.ledger.balance(await walletOf(email));
}

/** The UTC date `days` before today by this machine's clock, as the close names days. */
function daysBefore(days: number): string {
  return new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

it('seeds two admins, a support user and three customers with history, once', async () => {
  await seedSandbox(deps());
  await seedSandbox(deps());
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

it('gives the demo customers legal names, also in a sandbox seeded before there were any', async () => {
  await seedSandbox(deps());
  await db.query("UPDATE users SET legal_name = NULL WHERE email <> 'yuki@coffer.test'");
  await db.query(
    "UPDATE users SET legal_name = 'Yuki Tanaka-Weiss' WHERE email = 'yuki@coffer.test'",
  );
  await seedSandbox(deps());
  const named = await db.query<{ email: string; legal_name: string | null }>(
    'SELECT email, legal_name FROM users ORDER BY email',
  );
  expect(named.rows).toEqual([
    { email: 'admin@coffer.test', legal_name: null },
    { email: 'alice@coffer.test', legal_name: 'Alice Jane Morgan' },
    { email: 'bruno@coffer.test', legal_name: 'Bruno Maximilian Keller' },
    { email: 'checker@coffer.test', legal_name: null },
    { email: 'support@coffer.test', legal_name: null },
    // A name a verification recorded is not overwritten by the seed's.
    { email: 'yuki@coffer.test', legal_name: 'Yuki Tanaka-Weiss' },
  ]);
});

it('lets every demo user sign in with the printed credentials, demo customers having accepted the sample terms', async () => {
  expect(app.terms?.version).toBe('sandbox-sample-1');
  await seedSandbox(deps());
  const printed = describeDemoUsers(demoUsers);
  for (const demo of demoUsers) {
    expect(printed).toContain(`${demo.email.padEnd(22)} ${demo.password}`);
    const login = await new TestClient(app).post('/api/v1/auth/login', {
      email: demo.email,
      password: demo.password,
    });
    expect(login.json()).toMatchObject({
      status: 'signed_in',
      user: { role: demo.role, isEmailVerified: true, mustAcceptTerms: false },
    });
  }
});

it('lets the second demo admin approve what the first prepared over the approval threshold', async () => {
  await seedSandbox(deps());
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

describe('the demo history of a fresh sandbox', () => {
  it('falls on the days before today, and those days are closed and balance', async () => {
    await seedSandbox(deps());
    const closes = await db.query<{ day: string; is_balanced: boolean; line_count: bigint }>(
      'SELECT day::text AS day, is_balanced, line_count FROM book_closes ORDER BY day',
    );
    // Alice's three items on the last three days, Bruno's and Yuki's two on the last two.
    expect(closes.rows).toEqual([
      { day: daysBefore(3), is_balanced: true, line_count: 2n },
      { day: daysBefore(2), is_balanced: true, line_count: 6n },
      { day: daysBefore(1), is_balanced: true, line_count: 6n },
    ]);
  });

  it('is back-dated by the seed alone: never outside the sandbox, never into a closed day', async () => {
    const [alice, settlement] = [
      await walletOf('alice@coffer.test'),
      await app.ledger.systemAccount('settlement', toCurrencyCode('USD')),
    ];
    const posting: Posting = {
      kind: 'deposit',
      memo: 'Back-dated',
      lines: [
        { accountId: settlement, amountMinor: -100n },
        { accountId: alice, amountMinor: 100n },
      ],
    };
    const yesterday = new Date(Date.now() - 24 * 60 * 60 * 1000);
    await expect(
      postBackDated(db, { isSandbox: false }, [{ posting, postedAt: yesterday }]),
    ).rejects.toThrow(/only in the sandbox/);
    await expect(postBackDated(db, app.config, [{ posting, postedAt: yesterday }])).rejects.toThrow(
      /after the last closed day/,
    );
    await expect(
      postBackDated(db, app.config, [{ posting, postedAt: new Date(Date.now() + 60_000) }]),
    ).rejects.toThrow(/before now/);
    await app.ledger.assertInvariants();

    // No other source file calls it.
    const apiSource = fileURLToPath(new URL('../../', import.meta.url));
    const callers = (await readdir(apiSource, { recursive: true }))
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => readFileSync(path.join(apiSource, file), 'utf8').includes('postBackDated'));
    expect(callers.sort()).toEqual(['features/sandbox/seed.ts', 'ledger/ledger.ts']);
  });
});
