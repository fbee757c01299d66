// Guessing step-up codes in parallel through the real payout route: every try is spent
// before its code is compared, so concurrency buys no extra guesses. Needs PostgreSQL.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { createCustomer, type TestCustomer } from '../../../test/customers.ts';
import { strongPassword } from '../../../test/http.ts';
import { bankDestination, emailedStepUpCode, requestPayout } from '../../../test/payouts.ts';
import type { Database } from '../../db/client.ts';
import { stepUpCodeTriesMax } from './service.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { poolSize: 30, checksAfterEach: 'ledger' },
);

const rounds = 4;
const wrongCodeCount = 12;

/** Any other six digits: a wrong code for sure. */
const otherCode = (code: string, offset: number) =>
  String((Number(code) + offset) % 1_000_000).padStart(6, '0');

/** Counts answers by status and error code; a 5xx (a deadlock, a bug) fails the test. */
function outcomes(responses: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    expect(response.statusCode, response.body).toBeLessThan(500);
    const key = response.statusCode === 201 ? 'ok' : response.json().error.code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Twelve wrong codes and the right one, each confirming a payout of 10.00, all at once. */
function guessAll(customer: TestCustomer, rightCode: string, wrongCodes: string[]) {
  const codes = [...wrongCodes.slice(0, wrongCodeCount / 2), rightCode, ...wrongCodes.slice(6)];
  return Promise.all(
    codes.map((stepUpCode) =>
      requestPayout(customer.client, { ...bankDestination, amount: '10.00', stepUpCode }),
    ),
  );
}

/** What the payouts did to the customer's money: how many were made and what is held. */
async function moneyMoved(customer: TestCustomer) {
  const payouts = await db.query<{ count: bigint }>(
    'SELECT count(*)::bigint AS count FROM payouts WHERE user_id = $1',
    [customer.user.id],
  );
  const balance = await app.ledger.balance(customer.wallet.id);
  return { payouts: payouts.rows[0]?.count, heldMinor: balance.heldMinor };
}

describe('step-up codes guessed concurrently on PostgreSQL', () => {
  it(`compares at most ${stepUpCodeTriesMax} emailed codes however many arrive at once`, async () => {
    let acceptedRounds = 0;
    for (let round = 0; round < rounds; round += 1) {
      const customer = await createCustomer(app, { level: 2, balance: '100.00' });
      const rightCode = await emailedStepUpCode(app, customer);
      const wrongCodes = Array.from({ length: wrongCodeCount }, (_, index) =>
        otherCode(rightCode, index + 1),
      );

      const counts = outcomes(await guessAll(customer, rightCode, wrongCodes));

      const accepted = counts.ok ?? 0;
      expect(accepted + (counts.wrong_code ?? 0)).toBe(wrongCodeCount + 1);
      expect(accepted).toBeLessThanOrEqual(1);
      const code = await db.query<{ failed_attempts: number; is_consumed: boolean }>(
        'SELECT failed_attempts, consumed_at IS NOT NULL AS is_consumed FROM step_up_codes WHERE user_id = $1',
        [customer.user.id],
      );
      // Every try was spent before its comparison: never more than five were made. Without
      // the right code winning, the twelve wrong ones used all five; when it wins, the
      // tries that arrive after it find the code consumed and spend nothing.
      expect(code.rows).toHaveLength(1);
      const triesSpent = code.rows[0]?.failed_attempts ?? 0;
      expect(code.rows[0]?.is_consumed).toBe(accepted === 1);
      expect(triesSpent).toBeLessThanOrEqual(stepUpCodeTriesMax);
      if (accepted === 0) expect(triesSpent).toBe(stepUpCodeTriesMax);
      expect(await moneyMoved(customer)).toEqual({
        payouts: BigInt(accepted),
        heldMinor: BigInt(accepted) * 1000n,
      });
      acceptedRounds += accepted;
    }
    expect(acceptedRounds).toBeLessThanOrEqual(rounds);
  });

  it('compares at most five wrong authenticator codes however many arrive at once', async () => {
    for (let round = 0; round < rounds; round += 1) {
      const customer = await createCustomer(app, { level: 2, balance: '100.00' });
      const setup = await customer.client.post('/api/v1/profile/totp/setup', {
        currentPassword: strongPassword,
      });
      const totp = new TOTP({ secret: setup.json().secret, digits: 6, period: 30 });
      const codeAt = (offsetSteps: number) =>
        totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
      const enabled = await customer.client.post('/api/v1/profile/totp/enable', {
        code: codeAt(0),
      });
      expect(enabled.statusCode).toBe(200);
      // The enrolment spent this step's code; the next step's is accepted within the window.
      const rightCode = codeAt(1);
      const validCodes = new Set([-1, 0, 1, 2].map(codeAt));
      const wrongCodes: string[] = [];
      for (let offset = 1; wrongCodes.length < wrongCodeCount; offset += 1) {
        const candidate = otherCode(rightCode, offset);
        if (!validCodes.has(candidate)) wrongCodes.push(candidate);
      }

      const counts = outcomes(await guessAll(customer, rightCode, wrongCodes));

      const accepted = counts.ok ?? 0;
      expect(accepted).toBeLessThanOrEqual(1);
      // Five wrong codes lock it; the others were refused before any comparison. (The right
      // code gives its try back, so it may let one more wrong code be compared.)
      expect(counts.wrong_code).toBeLessThanOrEqual(5);
      expect(accepted + (counts.wrong_code ?? 0) + (counts.too_many_attempts ?? 0)).toBe(
        wrongCodeCount + 1,
      );
      expect(await moneyMoved(customer)).toEqual({
        payouts: BigInt(accepted),
        heldMinor: BigInt(accepted) * 1000n,
      });
    }
  });
});
