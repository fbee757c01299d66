import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { FastifyInstance } from 'fastify';
import { TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { lastEmailTo, signedUpClient, strongPassword } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import { spendStepUp } from '../../money-out/step-up-spend.ts';
import type { AppError } from '../../platform/app-error.ts';
import {
  checkStepUp,
  codeForAnotherPaymentMessage,
  maskEmail,
  type StepUpDeps,
  startStepUp,
  stepUpCodeTriesMax,
} from './service.ts';

let db: Database;
let app: FastifyInstance;
let deps: StepUpDeps;

useTestApp((opened) => {
  ({ app, db } = opened);
  deps = { db: app.db, config: app.config, mailer: app.mailer, site: app.site };
});

async function emailedCode(email: string): Promise<string> {
  const { text } = await lastEmailTo(db, email);
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no code in: ${text}`);
  return code;
}

const payment: PaymentToConfirm = {
  amountMinor: 2_500n,
  currency: toCurrencyCode('USD'),
  payee: 'First Test Bank account ending 5678',
  payeeKey: 'bank:12345678',
};

/** Any other six digits: a wrong code for sure. */
const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = (await promise.then(
    () => null,
    (caught: unknown) => caught,
  )) as AppError | null;
  if (!error) throw new Error('expected a refusal');
  return error.code;
}

describe('step-up by emailed code', () => {
  it('emails a code to the customer and masks the address in the answer', async () => {
    const { user } = await signedUpClient(app);
    const started = await startStepUp(deps, user.id, 'payout', payment);
    expect(started).toMatchObject({ method: 'email', sentTo: maskEmail(user.email) });
    expect(started.method === 'email' && started.sentTo).toMatch(/^t\*\*\*@example\.com$/);
    expect(await emailedCode(user.email)).toMatch(/^\d{6}$/);
  });

  it('accepts the code once: a second spend is refused', async () => {
    const { user } = await signedUpClient(app);
    await startStepUp(deps, user.id, 'payout', payment);
    const code = await emailedCode(user.email);
    const proof = await checkStepUp(deps, user.id, 'payout', code, payment);
    await db.transaction((tx) => spendStepUp(tx, proof));
    expect(await refusal(db.transaction((tx) => spendStepUp(tx, proof)))).toBe('wrong_code');
    expect(await refusal(checkStepUp(deps, user.id, 'payout', code, payment))).toBe('wrong_code');
  });

  it('keeps a code usable when the movement it confirmed rolled back', async () => {
    const { user } = await signedUpClient(app);
    await startStepUp(deps, user.id, 'transfer', payment);
    const code = await emailedCode(user.email);
    const proof = await checkStepUp(deps, user.id, 'transfer', code, payment);
    await db
      .transaction(async (tx) => {
        await spendStepUp(tx, proof);
        throw new Error('the movement failed');
      })
      .catch(() => {});
    const again = await checkStepUp(deps, user.id, 'transfer', code, payment);
    await db.transaction((tx) => spendStepUp(tx, again));
  });

  it(`burns the code after ${stepUpCodeTriesMax} wrong tries, even with the right one after`, async () => {
    const { user } = await signedUpClient(app);
    await startStepUp(deps, user.id, 'payout', payment);
    const code = await emailedCode(user.email);
    for (let attempt = 0; attempt < stepUpCodeTriesMax; attempt += 1) {
      expect(await refusal(checkStepUp(deps, user.id, 'payout', otherCode(code), payment))).toBe(
        'wrong_code',
      );
    }
    expect(await refusal(checkStepUp(deps, user.id, 'payout', code, payment))).toBe('wrong_code');
  });

  it('refuses an expired code, a code for another purpose, and a replaced code', async () => {
    const { user } = await signedUpClient(app);
    await startStepUp(deps, user.id, 'payout', payment);
    const first = await emailedCode(user.email);
    expect(await refusal(checkStepUp(deps, user.id, 'transfer', first, payment))).toBe(
      'wrong_code',
    );
    await startStepUp(deps, user.id, 'payout', payment);
    const second = await emailedCode(user.email);
    if (second !== first) {
      expect(await refusal(checkStepUp(deps, user.id, 'payout', first, payment))).toBe(
        'wrong_code',
      );
    }
    await db.query(
      "UPDATE step_up_codes SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [user.id],
    );
    expect(await refusal(checkStepUp(deps, user.id, 'payout', second, payment))).toBe('wrong_code');
  });

  it('names the amount and payee in the email, and works only for that payment', async () => {
    const { user } = await signedUpClient(app);
    await startStepUp(deps, user.id, 'payout', payment);
    const { text } = await lastEmailTo(db, user.email);
    // The amount is written with a no-break space, so it never wraps in a mail reader.
    expect(text).toMatch(
      /Your code to withdraw USD\u00a025\.00 to First Test Bank account ending 5678 is \d{6}\./,
    );
    expect(text).toContain('only for this amount and payee');
    const code = await emailedCode(user.email);
    // The right code for a larger amount, another account or another currency: refused, and
    // the customer is told why. Each spends a try, as a wrong code does.
    const others: PaymentToConfirm[] = [
      { ...payment, amountMinor: 250_000n },
      { ...payment, payeeKey: 'bank:87654321' },
      { ...payment, currency: toCurrencyCode('EUR') },
    ];
    for (const other of others) {
      const error = await checkStepUp(deps, user.id, 'payout', code, other).then(
        () => null,
        (caught: unknown) => caught as AppError,
      );
      expect(error?.code).toBe('wrong_code');
      expect(error?.fields).toEqual({ stepUpCode: codeForAnotherPaymentMessage });
    }
    const proof = await checkStepUp(deps, user.id, 'payout', code, payment);
    await db.transaction((tx) => spendStepUp(tx, proof));
    const tries = await db.query<{ failed_attempts: number }>(
      'SELECT failed_attempts FROM step_up_codes WHERE user_id = $1',
      [user.id],
    );
    expect(tries.rows).toEqual([{ failed_attempts: others.length + 1 }]);
  });

  it('asks for a code when none was given', async () => {
    const { user } = await signedUpClient(app);
    expect(await refusal(checkStepUp(deps, user.id, 'payout', undefined, payment))).toBe(
      'step_up_required',
    );
  });
});

describe('step-up by authenticator', () => {
  it('uses the authenticator instead of email, and each code once', async () => {
    const { client, user } = await signedUpClient(app);
    const setup = await client.post('/api/v1/profile/totp/setup', {
      currentPassword: strongPassword,
    });
    const { secret } = setup.json();
    const totp = new TOTP({ secret, digits: 6, period: 30 });
    // Steps counted from one instant: a 30 s window ending mid-test must not turn "the
    // code that enabled it" into the next step's fresh code.
    const startedAt = Date.now();
    const codeAt = (offsetSteps: number) =>
      totp.generate({ timestamp: startedAt + offsetSteps * 30_000 });
    expect((await client.post('/api/v1/profile/totp/enable', { code: codeAt(0) })).statusCode).toBe(
      200,
    );

    expect(await startStepUp(deps, user.id, 'payout', payment)).toEqual({ method: 'totp' });

    // The code that just enabled it is spent; the next step's code is still in the window.
    expect(await refusal(checkStepUp(deps, user.id, 'payout', codeAt(0), payment))).toBe(
      'wrong_code',
    );
    const proof = await checkStepUp(deps, user.id, 'payout', codeAt(1), payment);
    await db.transaction((tx) => spendStepUp(tx, proof));
    expect(await refusal(checkStepUp(deps, user.id, 'payout', codeAt(1), payment))).toBe(
      'wrong_code',
    );
  });

  it('locks after repeated wrong authenticator codes', async () => {
    const { client, user } = await signedUpClient(app);
    const setup = await client.post('/api/v1/profile/totp/setup', {
      currentPassword: strongPassword,
    });
    const totp = new TOTP({ secret: setup.json().secret, digits: 6, period: 30 });
    await client.post('/api/v1/profile/totp/enable', { code: totp.generate() });
    const wrong = otherCode(otherCode(totp.generate()));
    const codes = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      codes.push(await refusal(checkStepUp(deps, user.id, 'payout', wrong, payment)));
    }
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('wrong_code'));
    expect(codes[5]).toBe('too_many_attempts');
  });
});
