// Step-up codes and payout requests, for the tests of payouts and of what guards them.

import { toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { payoutToConfirm } from '../src/features/payouts/service.ts';
import { paymentHashOf } from '../src/features/step-up/service.ts';
import { sha256Hex } from '../src/platform/crypto.ts';
import { newId } from '../src/platform/ids.ts';
import type { TestCustomer } from './customers.ts';
import { lastEmailTo, newIdempotencyKey, type TestClient } from './http.ts';

export const bankDestination = {
  method: 'bank',
  holderName: 'Ada Lovelace',
  bankName: 'First Test Bank',
  accountNumber: '12345678',
} as const;

/**
 * Asks for the step-up of a payout of `amount` to `destination` (the challenge checks it
 * first); the emailed code works only for that amount and destination.
 */
export function payoutChallenge(
  customer: TestCustomer,
  amount = '1.00',
  destination: object = bankDestination,
): Promise<LightMyRequestResponse> {
  return customer.client.post('/api/v1/step-up/challenges', {
    purpose: 'payout',
    amount,
    destination,
  });
}

/** The code in the newest step-up email to the customer. */
export async function lastStepUpCode(app: FastifyInstance, email: string): Promise<string> {
  const mail = await lastEmailTo(app.db, email);
  const code = /verification code: (\d{6})/.exec(mail.subject)?.[1];
  if (!code) throw new Error(`no code in "${mail.subject}"`);
  return code;
}

/** Asks for a payout step-up and reads the code from the email it sent. */
export async function emailedStepUpCode(
  app: FastifyInstance,
  customer: TestCustomer,
  amount = '1.00',
  destination: object = bankDestination,
): Promise<string> {
  const challenge = await payoutChallenge(customer, amount, destination);
  if (challenge.statusCode !== 200) throw new Error(`step-up failed: ${challenge.body}`);
  return lastStepUpCode(app, customer.body.email);
}

/**
 * Stores `count` unspent emailed codes, all `code`, for payouts of `amount` (USD) to
 * `bankDestination`, as if that many challenges had been answered by mail: concurrency
 * tests need a valid code for every one of many requests, and each request still checks
 * and spends one through the real route.
 */
export async function plantStepUpCodes(
  app: FastifyInstance,
  planted: { userId: string; code: string; count: number; amount: string },
): Promise<void> {
  const currency = toCurrencyCode('USD');
  const payment = payoutToConfirm(
    { amountMinor: parseAmount(planted.amount, currency), currency },
    bankDestination,
  );
  for (let index = 0; index < planted.count; index += 1) {
    await app.db.query(
      `INSERT INTO step_up_codes (id, user_id, purpose, code_hash, payment_hash, expires_at)
       VALUES ($1, $2, 'payout', $3, $4, now() + interval '10 minutes')`,
      [newId(), planted.userId, sha256Hex(planted.code), paymentHashOf('payout', payment)],
    );
  }
}

export function requestPayout(
  client: TestClient,
  body: Record<string, string>,
  idempotencyKey: string = newIdempotencyKey(),
): Promise<LightMyRequestResponse> {
  return client.post('/api/v1/payouts', body, { 'idempotency-key': idempotencyKey });
}
