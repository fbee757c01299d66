// Customers ready to withdraw, step-up codes and payout requests, for this feature's tests.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { deposit } from '../../../test/factories.ts';
import { lastEmailTo, signedUpClient, type TestClient, tokenOf } from '../../../test/http.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { sha256Hex } from '../../platform/crypto.ts';
import { newId } from '../../platform/ids.ts';

export type PayoutCustomer = Awaited<ReturnType<typeof signedUpClient>> & { walletId: AccountId };

/**
 * Signs a customer up, follows their verification link, funds the wallet from settlement
 * with `balance`, and sets `level` (2 unless told otherwise: the first that may withdraw).
 */
export async function payoutCustomer(
  app: FastifyInstance,
  options: { country?: string; balance?: string; level?: number } = {},
): Promise<PayoutCustomer> {
  const signedUp = await signedUpClient(app, { country: options.country ?? 'US' });
  const mail = await lastEmailTo(app.db, signedUp.body.email);
  const verified = await signedUp.client.post('/api/v1/auth/verify-email', {
    token: tokenOf(mail.link),
  });
  if (verified.statusCode !== 200) throw new Error(`verification failed: ${verified.body}`);
  const found = await app.db.query<{ id: AccountId; currency: string }>(
    "SELECT id, currency FROM accounts WHERE owner_user_id = $1 AND kind = 'customer'",
    [signedUp.user.id],
  );
  const wallet = found.rows[0];
  if (!wallet) throw new Error('a customer has a wallet');
  if (options.balance !== undefined) {
    const currency = toCurrencyCode(wallet.currency);
    await deposit(app.ledger, wallet.id, parseAmount(options.balance, currency), currency);
  }
  await app.db.query('UPDATE users SET level = $2 WHERE id = $1', [
    signedUp.user.id,
    options.level ?? 2,
  ]);
  return { ...signedUp, walletId: wallet.id };
}

/** Asks for a payout step-up and reads the code from the email it sent. */
export async function emailedStepUpCode(
  app: FastifyInstance,
  customer: PayoutCustomer,
): Promise<string> {
  const challenge = await customer.client.post('/api/v1/step-up/challenges', {
    purpose: 'payout',
  });
  if (challenge.statusCode !== 200) throw new Error(`step-up failed: ${challenge.body}`);
  const mail = await lastEmailTo(app.db, customer.body.email);
  const code = /verification code: (\d{6})/.exec(mail.subject)?.[1];
  if (!code) throw new Error(`no code in "${mail.subject}"`);
  return code;
}

/**
 * Stores `count` unspent emailed codes, all `code`, as if that many challenges had been
 * answered by mail: concurrency tests need a valid code for every one of many requests,
 * and each request still checks and spends one through the real route.
 */
export async function plantStepUpCodes(
  app: FastifyInstance,
  userId: string,
  code: string,
  count: number,
): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await app.db.query(
      `INSERT INTO step_up_codes (id, user_id, purpose, code_hash, expires_at)
       VALUES ($1, $2, 'payout', $3, now() + interval '10 minutes')`,
      [newId(), userId, sha256Hex(code)],
    );
  }
}

let keyCounter = 0;

/** A fresh Idempotency-Key, unique within the test run. */
export function newKey(): string {
  keyCounter += 1;
  return `payout-${keyCounter}-${Date.now()}`;
}

export const bankDestination = {
  method: 'bank',
  holderName: 'Ada Lovelace',
  bankName: 'First Test Bank',
  accountNumber: '12345678',
} as const;

export function requestPayout(
  client: TestClient,
  body: Record<string, string>,
  idempotencyKey: string = newKey(),
): Promise<LightMyRequestResponse> {
  return client.post('/api/v1/payouts', body, { 'idempotency-key': idempotencyKey });
}
