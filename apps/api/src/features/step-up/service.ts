import { randomInt, timingSafeEqual } from 'node:crypto';
import { formatMoney } from '@coffer/contracts/money';
import type { PasskeyAssertion, PasskeyOptions } from '@coffer/contracts/passkeys';
import type { StepUpChallenge, StepUpPurpose } from '@coffer/contracts/step-up';
import { findUserById, type UserRow } from '../../customers/queries.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import type { StepUpProof } from '../../money-out/step-up-spend.ts';
import { hasPasskeys } from '../../passkeys/queries.ts';
import { authenticationOptionsFor, verifyAssertion } from '../../passkeys/webauthn.ts';
import { AppError } from '../../platform/app-error.ts';
import { decryptSecret, sha256Hex } from '../../platform/crypto.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueEmail } from '../../platform/mail.ts';
import { matchingTotpStep } from '../../platform/totp.ts';
import { claimLoginAttempt, giveBackLoginAttempt } from '../auth/login-throttle.ts';
import type { AuthDeps } from '../auth/service.ts';
import { replaceStepUpCode, spendStepUpCodeTry } from './queries.ts';

/** PRODUCT.md section 5: an emailed step-up code lasts 10 minutes and allows 5 tries. */
export const stepUpCodeLifetimeMs = 10 * 60 * 1000;
export const stepUpCodeTriesMax = 5;

export type StepUpDeps = Pick<AuthDeps, 'db' | 'config' | 'mailer' | 'site'>;

/** "to send USD 250.00 to 1234567890": what the code confirms, in the email's words. */
function paymentWords(purpose: StepUpPurpose, payment: PaymentToConfirm): string {
  const amount = formatMoney(payment, { currencyDisplay: 'code' });
  switch (purpose) {
    case 'transfer':
      return `to send ${amount} to ${payment.payee}`;
    case 'payout':
      return `to withdraw ${amount} to ${payment.payee}`;
    case 'loan_repayment':
      return `to repay ${amount} of ${payment.payee}`;
    // A payee moves no money yet: the code confirms what the new payee pays.
    case 'payee':
      return `to add a new payee (${payment.payee})`;
    case 'bulk_payment':
      return `to pay ${amount} in ${payment.payee}`;
  }
}

/**
 * What binds an emailed code to one payment: a request for another amount, currency or
 * payee does not match it, so a code given away for one payment cannot confirm another.
 */
export function paymentHashOf(purpose: StepUpPurpose, payment: PaymentToConfirm): string {
  return sha256Hex(
    [purpose, payment.currency, payment.amountMinor.toString(), payment.payeeKey].join('\n'),
  );
}

/** "a***@example.com": enough for the customer to recognise, nothing more. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

async function customerOf(deps: StepUpDeps, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('unauthenticated');
  return user;
}

/**
 * Starts a step-up: customers with an authenticator use it; the others get a fresh code
 * by email for this one payment, named in the email, which replaces any earlier one for
 * the same purpose.
 */
export async function startStepUp(
  deps: StepUpDeps,
  userId: string,
  purpose: StepUpPurpose,
  payment: PaymentToConfirm,
): Promise<StepUpChallenge> {
  const user = await customerOf(deps, userId);
  // A passkey answers too (`stepUpPasskeyOptions`): the form offers it beside the code.
  const passkeyOffer = (await hasPasskeys(deps.db, userId)) ? { hasPasskeys: true } : {};
  if (user.totp_secret_encrypted) return { method: 'totp', ...passkeyOffer };
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(Date.now() + stepUpCodeLifetimeMs);
  await deps.db.transaction(async (tx) => {
    await replaceStepUpCode(tx, {
      id: newId(),
      userId: user.id,
      purpose,
      codeHash: sha256Hex(code),
      paymentHash: paymentHashOf(purpose, payment),
      expiresAt,
    });
    await enqueueEmail(tx, {
      to: user.email,
      subject: `Your ${deps.site.institutionName} verification code: ${code}`,
      text: [
        `Hello ${user.username},`,
        '',
        `Your code ${paymentWords(purpose, payment)} is ${code}.`,
        purpose === 'payee'
          ? 'It works once, for 10 minutes, and only for this payee.'
          : purpose === 'bulk_payment'
            ? 'It works once, for 10 minutes, and only for this file and its total.'
            : 'It works once, for 10 minutes, and only for this amount and payee.',
        '',
        `Nobody from ${deps.site.institutionName} will ever ask you for this code.`,
        'If this is not a payment you are making, do not share the code: change your password and contact support.',
      ].join('\n'),
    });
  });
  deps.mailer.kick();
  return {
    method: 'email',
    sentTo: maskEmail(user.email),
    expiresAt: expiresAt.toISOString(),
    ...passkeyOffer,
  };
}

/** A step-up challenge answered by a passkey: bound, as an emailed code, to this payment. */
function passkeyScopeOf(userId: string, purpose: StepUpPurpose, payment: PaymentToConfirm) {
  return { flow: 'step_up', userId, binding: paymentHashOf(purpose, payment) } as const;
}

/** Options for the customer's passkeys to sign this one payment (prechecked by the caller). */
export function stepUpPasskeyOptions(
  deps: StepUpDeps,
  userId: string,
  purpose: StepUpPurpose,
  payment: PaymentToConfirm,
): Promise<PasskeyOptions> {
  return authenticationOptionsFor(deps, passkeyScopeOf(userId, purpose, payment));
}

function sameHash(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Checks a code before the money transaction opens. Every try is spent before its
 * comparison, in a statement of its own that the refusal does not roll back, so codes
 * sent in parallel get no more tries than codes sent one after another.
 */
export async function checkStepUp(
  deps: StepUpDeps,
  userId: string,
  purpose: StepUpPurpose,
  code: string | undefined,
  payment: PaymentToConfirm,
  passkey?: PasskeyAssertion,
): Promise<StepUpProof> {
  if (passkey) {
    // Its challenge is spent by the check: another payment's, or a replay, is refused.
    await verifyAssertion(deps, passkeyScopeOf(userId, purpose, payment), passkey);
    return { method: 'passkey', userId };
  }
  if (!code) throw new AppError('step_up_required', { fields: { stepUpCode: 'Required' } });
  const user = await customerOf(deps, userId);
  if (user.totp_secret_encrypted) {
    return checkAuthenticatorCode(deps, user, user.totp_secret_encrypted, code);
  }
  return checkEmailedCode(deps, userId, purpose, code, paymentHashOf(purpose, payment));
}

/**
 * Authenticator codes have no tries of their own: each one counts toward a lock like a
 * failed login, counted before the check; a right code gives its attempt back, so
 * customers who confirm many payments never lock themselves out.
 */
async function checkAuthenticatorCode(
  deps: StepUpDeps,
  user: UserRow,
  encryptedSecret: string,
  code: string,
): Promise<StepUpProof> {
  const throttleKey = `step-up:${user.id}`;
  if (!(await claimLoginAttempt(deps.db, throttleKey))) throw new AppError('too_many_attempts');
  const secret = decryptSecret(encryptedSecret, deps.config.secretKeys);
  const step = matchingTotpStep(secret, code);
  const isFresh =
    step !== null && (user.totp_last_used_step === null || step > user.totp_last_used_step);
  if (!isFresh || step === null) throw new AppError('wrong_code');
  await giveBackLoginAttempt(deps.db, throttleKey);
  return { method: 'totp', userId: user.id, step };
}

/**
 * An emailed code allows five tries. A try is spent on the newest live code with tries
 * left before comparing (its row lock orders parallel tries), and a right code's try is
 * not given back: at most five comparisons are ever made per code. The right code for
 * another payment is refused as well, and says so.
 */
async function checkEmailedCode(
  deps: StepUpDeps,
  userId: string,
  purpose: StepUpPurpose,
  code: string,
  paymentHash: string,
): Promise<StepUpProof> {
  const active = await spendStepUpCodeTry(deps.db, {
    userId,
    purpose,
    triesMax: stepUpCodeTriesMax,
  });
  if (!active || !sameHash(active.code_hash, sha256Hex(code))) throw new AppError('wrong_code');
  if (active.payment_hash === null || !sameHash(active.payment_hash, paymentHash)) {
    throw new AppError('wrong_code', { fields: { stepUpCode: codeForAnotherPaymentMessage } });
  }
  return { method: 'email', userId, codeId: active.id };
}

export const codeForAnotherPaymentMessage =
  'This code was sent for another amount or payee. Ask for a new code.';
