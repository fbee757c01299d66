// The one way tests make a customer: signed up through the real routes, then put in the state
// a test needs (verified, funded, at a level, frozen) directly, as staff or time would.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import type { insertUser } from '../src/features/auth/queries.ts';
import type { AccountId } from '../src/ledger/ledger.ts';
import { newId } from '../src/platform/ids.ts';
import { deposit } from './factories.ts';
import { lastEmailTo, signedUpClient, tokenOf } from './http.ts';

export type TestCustomer = Awaited<ReturnType<typeof signedUpClient>> & {
  wallet: { id: AccountId; number: string };
};

export type CustomerOptions = {
  country?: string;
  /** Deposited from settlement, as the customer would type it in the wallet's currency. */
  balance?: string;
  /** Set directly; sign-up's own level otherwise. */
  level?: number;
  /** Follows the verification link; true unless told otherwise. */
  isEmailVerified?: boolean;
  isFrozen?: boolean;
};

/** A customer (in the US unless told otherwise) with a wallet in the state `options` asks for. */
export async function createCustomer(
  app: FastifyInstance,
  options: CustomerOptions = {},
): Promise<TestCustomer> {
  const signedUp = await signedUpClient(app, { country: options.country ?? 'US' });
  if (options.isEmailVerified ?? true) {
    const mail = await lastEmailTo(app.db, signedUp.body.email);
    const verified = await signedUp.client.post('/api/v1/auth/verify-email', {
      token: tokenOf(mail.link),
    });
    if (verified.statusCode !== 200) throw new Error(`verification failed: ${verified.body}`);
  }
  const found = await app.db.query<{ id: AccountId; number: string; currency: string }>(
    "SELECT id, number, currency FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [signedUp.user.id],
  );
  const wallet = found.rows[0];
  if (!wallet) throw new Error('a customer has a wallet');
  if (options.balance !== undefined) {
    const currency = toCurrencyCode(wallet.currency);
    await deposit(app.ledger, wallet.id, parseAmount(options.balance, currency), currency);
  }
  if (options.level !== undefined) {
    await app.db.query('UPDATE users SET level = $2 WHERE id = $1', [
      signedUp.user.id,
      options.level,
    ]);
  }
  if (options.isFrozen) {
    await app.db.query(
      "UPDATE users SET frozen_at = now(), frozen_reason = 'Frozen by the test' WHERE id = $1",
      [signedUp.user.id],
    );
  }
  return { ...signedUp, wallet: { id: wallet.id, number: wallet.number } };
}

/**
 * A users row and nothing else (no wallet, no session: it can be deleted again), for
 * `insertUser`, where a test is about the users table itself.
 */
export function bareUser(
  names: { username?: string; email?: string } = {},
): Parameters<typeof insertUser>[1] {
  const id = newId();
  return {
    id,
    username: names.username ?? 'Bare User',
    email: names.email ?? `bare-${id}@coffer.test`,
    phone: null,
    country: 'US',
    role: 'customer',
    passwordHash: 'not-a-hash',
    isEmailVerified: false,
  };
}

/**
 * Another wallet of the customer's, in `currency`, funded from settlement when `balance` is
 * given (as typed in that currency): opened directly, as `POST /wallets` would at level 2.
 */
export async function addWallet(
  app: FastifyInstance,
  customer: TestCustomer,
  currency: string,
  balance?: string,
): Promise<{ id: AccountId; number: string }> {
  const code = toCurrencyCode(currency);
  const wallet = await app.ledger.openWallet(customer.user.id, code, app.db, false);
  const amountMinor = balance === undefined ? 0n : parseAmount(balance, code);
  if (amountMinor > 0n) await deposit(app.ledger, wallet.id, amountMinor, code);
  return wallet;
}
