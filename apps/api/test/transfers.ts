// Customers ready to Quick Pay, for this feature's tests: verified, funded, at a level.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import type { FastifyInstance } from 'fastify';
import { deposit } from '../../../test/factories.ts';
import { lastEmailTo, signedUpClient, type TestClient, tokenOf } from '../../../test/http.ts';
import type { AccountId } from '../../ledger/ledger.ts';

export type TestCustomer = Awaited<ReturnType<typeof signedUpClient>> & {
  wallet: { id: AccountId; number: string };
};

/**
 * Signs a customer up and, unless told otherwise, follows their verification link; funds
 * the wallet from settlement with `balance` and sets `level` directly in the database.
 */
export async function testCustomer(
  app: FastifyInstance,
  options: { country?: string; balance?: string; level?: number; isVerified?: boolean } = {},
): Promise<TestCustomer> {
  const signedUp = await signedUpClient(app, { country: options.country ?? 'US' });
  if (options.isVerified ?? true) {
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
  return { ...signedUp, wallet: { id: wallet.id, number: wallet.number } };
}

let keyCounter = 0;

/** A fresh Idempotency-Key, unique within the test run. */
export function newKey(): string {
  keyCounter += 1;
  return `quick-pay-${keyCounter}-${Date.now()}`;
}

export function quickPay(
  client: TestClient,
  body: { recipient: string; amount: string; note?: string; stepUpCode?: string },
  idempotencyKey: string = newKey(),
) {
  return client.post('/api/v1/transfers', body, { 'idempotency-key': idempotencyKey });
}
