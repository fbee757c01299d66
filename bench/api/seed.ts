// The benchmark's customers, written straight into a fresh, migrated database: a verified
// email, level 9 (25,000.00 a day of Quick Pay) and a funded wallet each, so that no
// transfer of the run is refused for anything but a bug. Also the sandbox's demo users,
// whose dashboard the web measurements open.
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { loadConfig } from '../../apps/api/src/config.ts';
import type { Database } from '../../apps/api/src/db/client.ts';
import { insertUser } from '../../apps/api/src/features/auth/queries.ts';
import { demoUsers, seedSandbox } from '../../apps/api/src/features/sandbox/seed.ts';
import type { AccountId, Ledger } from '../../apps/api/src/ledger/ledger.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { hashPassword } from '../../apps/api/src/platform/passwords.ts';

export const customerPassword = 'Bench-Customer-2026!';
const currency: CurrencyCode = toCurrencyCode('USD');
// 10,000.00 each against transfers of 0.01–2.00 between the same customers: nobody runs dry.
export const walletFundingMinor = 1_000_000n;
const customerLevel = 9;

export type Customer = {
  userId: string;
  email: string;
  walletId: AccountId;
  accountNumber: string;
};

export async function seedCustomers(
  db: Database,
  ledger: Ledger,
  count: number,
  { bystanderCount = 0 }: { bystanderCount?: number } = {},
): Promise<Customer[]> {
  // One hash for all: argon2 is deliberately slow, and the password is the same anyway.
  const passwordHash = await hashPassword(customerPassword);
  const settlement = await ledger.systemAccount('settlement', currency);
  const customers: Customer[] = [];
  for (let index = 0; index < count; index += 1) {
    const userId = newId();
    const email = `bench-customer-${index}@coffer.test`;
    const wallet = await db.transaction(async (tx) => {
      await insertUser(tx, {
        id: userId,
        username: `Bench Customer ${index}`,
        email,
        phone: null,
        country: 'US',
        role: 'customer',
        passwordHash,
        isEmailVerified: true,
      });
      await tx.query('UPDATE users SET level = $2 WHERE id = $1', [userId, customerLevel]);
      return ledger.openWallet(userId, currency, tx);
    });
    await ledger.post({
      kind: 'deposit',
      memo: 'Benchmark funding',
      lines: [
        { accountId: settlement, amountMinor: -walletFundingMinor },
        { accountId: wallet.id, amountMinor: walletFundingMinor },
      ],
    });
    customers.push({ userId, email, walletId: wallet.id, accountNumber: wallet.number });
  }
  // The funding above is in the ledger already, so the demo history is posted now, not
  // back-dated: the sandbox's configuration is all it needs.
  await seedSandbox({ db, ledger, config: loadConfig({}) });
  await seedBystanders(db, bystanderCount);
  // The state pgbench -i leaves its tables in: statistics fresh, dirty pages written.
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  return customers;
}

/**
 * Customers who are not sending during the run, as most of a bank's are not: each with a
 * wallet, a session and a rate-limit counter, written in bulk. Without them the tables the
 * hot path reads hold a few dozen rows, PostgreSQL rightly prefers reading their two or
 * three pages whole to using an index, and under the run's updates those pages fill with
 * dead row versions that every such read checks: the run would measure a bank of 64
 * customers, which nobody runs, and not the index look-ups of a real one.
 */
async function seedBystanders(db: Database, count: number): Promise<void> {
  // One statement: every row made from the same list, and the foreign keys checked at its end.
  await db.query(
    `WITH bystander AS (
       SELECT n, gen_random_uuid() AS user_id, gen_random_uuid() AS wallet_id
         FROM generate_series(1, $1::int) AS n),
     new_users AS (
       INSERT INTO users (id, username, email, country, role, password_hash, email_verified_at)
       SELECT user_id, 'Bystander ' || n, 'bystander-' || n || '@coffer.test', 'US',
              'customer', 'not-a-hash', now() FROM bystander),
     wallets AS (
       INSERT INTO accounts (id, number, kind, owner_user_id, currency, bucket_count)
       SELECT wallet_id, '8' || lpad(n::text, 9, '0'), 'customer', user_id, $2, 1 FROM bystander),
     balances AS (
       INSERT INTO account_balances (account_id, bucket, balance_minor)
       SELECT wallet_id, 0, 0 FROM bystander),
     sessions AS (
       INSERT INTO sessions (id, token_hash, user_id, expires_at)
       SELECT gen_random_uuid(), encode(sha256(user_id::text::bytea), 'hex'), user_id,
              now() + interval '1 day' FROM bystander)
     INSERT INTO attempt_counters (key_hash, window_started_at, attempt_count)
     SELECT encode(sha256(('bystander' || user_id)::bytea), 'hex'), now(), 1 FROM bystander`,
    [count, currency],
  );
}

/**
 * The first sandbox user with `role`: the customer is Alice (USD, with history), whose pages
 * are measured; the admin is Demo Admin, who sees every back-office page.
 */
export function sandboxUser(role: 'customer' | 'admin') {
  const user = demoUsers.find((demo) => demo.role === role);
  if (!user) throw new Error(`the sandbox seed has no ${role}`);
  return { email: user.email, password: user.password, username: user.username };
}

/** The sum of the customers' balances: Quick Pay moves money between them, never out. */
export async function totalBalanceMinor(db: Database, customers: Customer[]): Promise<bigint> {
  const result = await db.query<{ total: bigint | null }>(
    'SELECT sum(balance_minor)::bigint AS total FROM account_balances WHERE account_id = ANY($1::uuid[])',
    [customers.map((customer) => customer.walletId)],
  );
  return result.rows[0]?.total ?? 0n;
}
