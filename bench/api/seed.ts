// The benchmark's customers, written straight into a fresh, migrated database: a verified
// email, level 9 (25,000.00 a day of Quick Pay) and a funded wallet each, so that no
// transfer of the run is refused for anything but a bug. Also the sandbox's demo users,
// whose dashboard the web measurements open.
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
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
  await seedSandbox(db, ledger);
  // The state pgbench -i leaves its tables in: statistics fresh, dirty pages written.
  await db.query('VACUUM ANALYZE');
  await db.query('CHECKPOINT');
  return customers;
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
