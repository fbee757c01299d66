import type { LoginResponse, Me } from '@coffer/contracts/auth';
import { findCountry } from '@coffer/contracts/countries';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { Language } from '@coffer/contracts/languages';
import { estimatePasswordStrength } from '@coffer/contracts/password-strength';
import type { Site } from '@coffer/contracts/site';
import type { Terms } from '@coffer/contracts/terms';
import type { Config } from '../../config.ts';
import { refuseClosedAccount } from '../../customers/customers.ts';
import { findUserById, type UserRow } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';
import { countingFailures } from '../../platform/attempt-counters.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decryptSecret, randomToken, sha256Hex } from '../../platform/crypto.ts';
import { newId } from '../../platform/ids.ts';
import { enqueueEmail, type Mailer } from '../../platform/mail.ts';
import { notify } from '../../platform/notifications.ts';
import { hashPassword, verifyAgainstNobody, verifyPassword } from '../../platform/passwords.ts';
import { failureLimits } from '../../platform/rate-limits.ts';
import { createSession, revokeUserSessions } from '../../platform/sessions.ts';
import { matchingTotpStep, normalizeRecoveryCode } from '../../platform/totp.ts';
import { describeDevice } from '../../platform/user-agent.ts';
import { auditTermsAccepted, refuseUnlessCurrentTerms } from '../terms/service.ts';
import { consumeEmailToken, createEmailToken } from './email-tokens.ts';
import { passwordResetEmail, verificationEmail } from './emails.ts';
import { claimLoginAttempt, clearLoginFailures } from './login-throttle.ts';
import {
  acceptTotpStep,
  deviceHistoryOf,
  findUserByEmail,
  insertLoginChallenge,
  insertUser,
  isLoginChallengeLive,
  lockLoginChallenge,
  markEmailVerified,
  markLoginChallengeUsed,
  replaceEmailVerified,
  spendLoginChallengeTry,
  spendRecoveryCode,
  toMe,
  updatePasswordHash,
} from './queries.ts';

export type AuthDeps = {
  db: Database;
  ledger: Ledger;
  config: Config;
  mailer: Mailer;
  site: Site;
  /** The terms customers accept (app.terms); null where the operator published none. */
  terms: Terms | null;
  log: { error(object: object, message: string): void };
};

/** Who is asking: the browser, and the client's address (`request.ip`). */
export type Client = { userAgent: string | undefined; ipAddress: string };

export const loginChallengeTtlMs = 5 * 60 * 1000;
export const loginChallengeAttemptsMax = 5;

/** `field` names the form field the message belongs beside. */
export function assertPasswordStrong(
  password: string,
  personalWords: string[],
  field = 'password',
): void {
  if (!estimatePasswordStrength(password, personalWords).isStrongEnough) {
    throw new AppError('password_too_weak', { fields: { [field]: 'Password is too weak' } });
  }
}

export function linkTo(config: Config, path: string, token: string): string {
  return `${config.publicUrl}${path}?token=${encodeURIComponent(token)}`;
}

export async function sendVerificationEmail(
  deps: AuthDeps,
  tx: Queryable,
  user: { id: string; username: string },
  address: string,
): Promise<void> {
  const token = await createEmailToken(tx, {
    userId: user.id,
    purpose: 'verify_email',
    email: address,
  });
  await enqueueEmail(
    tx,
    verificationEmail({
      to: address,
      username: user.username,
      institutionName: deps.site.institutionName,
      url: linkTo(deps.config, '/verify-email', token),
    }),
  );
}

export async function requireUser(db: Queryable, userId: string): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('unauthenticated');
  return user;
}

export async function signUp(
  deps: AuthDeps,
  body: {
    username: string;
    email: string;
    phone: string;
    password: string;
    country: string;
    acceptedTermsVersion?: string | undefined;
  },
  client: Client & { language: Language },
): Promise<{ user: Me; sessionToken: string }> {
  refuseUnlessCurrentTerms(deps.terms, body.acceptedTermsVersion, 'acceptedTermsVersion');
  assertPasswordStrong(body.password, [body.username, body.email, body.email.split('@')[0] ?? '']);
  const country = findCountry(body.country);
  if (!country)
    throw new AppError('validation_failed', {
      fields: { country: 'Choose a country from the list' },
    });
  const passwordHash = await hashPassword(body.password);
  const userId = newId();
  const sessionToken = await deps.db.transaction(async (tx) => {
    const isInserted = await insertUser(tx, {
      id: userId,
      username: body.username,
      email: body.email,
      phone: body.phone,
      country: country.code,
      role: 'customer',
      passwordHash,
      isEmailVerified: false,
      acceptedTermsVersion: deps.terms?.version ?? null,
      signInLanguage: client.language,
    });
    if (!isInserted)
      throw new AppError('email_in_use', { fields: { email: 'Email already in use' } });
    if (deps.terms) {
      await auditTermsAccepted(tx, {
        userId,
        version: deps.terms.version,
        previousVersion: null,
        ipAddress: client.ipAddress,
      });
    }
    await deps.ledger.openWallet(userId, toCurrencyCode(country.currency), tx);
    await sendVerificationEmail(deps, tx, { id: userId, username: body.username }, body.email);
    return (await createSession(tx, { userId, ...client })).token;
  });
  deps.mailer.kick();
  return { user: toMe(await requireUser(deps.db, userId), deps.config, deps.terms), sessionToken };
}

export type LoginResult =
  | { status: 'signed_in'; user: Me; sessionToken: string }
  | { status: 'second_factor_required'; challengeToken: string };

/**
 * Checks an email and password. Two counters are spent before the password is checked,
 * so parallel guesses get no more tries than sequential ones: the client address's
 * failures (given back on success, so an office behind one address is never locked out)
 * and the typed address's lock (cleared on success).
 */
export async function logIn(
  deps: AuthDeps,
  body: { email: string; password: string },
  client: Client,
): Promise<LoginResult> {
  return countingFailures(
    deps.db,
    failureLimits.login,
    client.ipAddress,
    ['invalid_credentials'],
    () => checkPassword(deps, body, client),
  );
}

async function checkPassword(
  deps: AuthDeps,
  body: { email: string; password: string },
  client: Client,
): Promise<LoginResult> {
  const email = body.email.trim().toLowerCase();
  const user = await findUserByEmail(deps.db, email);
  const audit = (action: 'login_failed' | 'login_locked') =>
    user
      ? recordAudit(deps.db, {
          action,
          actorUserId: user.id,
          subjectUserId: user.id,
          ipAddress: client.ipAddress,
        })
      : null;
  if (!(await claimLoginAttempt(deps.db, email))) {
    await audit('login_locked');
    throw new AppError('too_many_attempts');
  }
  const isPasswordRight = user
    ? await verifyPassword(user.password_hash, body.password)
    : await verifyAgainstNobody(body.password);
  if (!user || !isPasswordRight) {
    await audit('login_failed');
    throw new AppError('invalid_credentials');
  }
  await clearLoginFailures(deps.db, email);
  // Told only to whoever knows the password: a closed account's second factor is not asked.
  if (user.closed_at) throw new AppError('account_closed');
  if (user.totp_secret_encrypted) {
    const challengeToken = randomToken();
    await insertLoginChallenge(deps.db, {
      tokenHash: sha256Hex(challengeToken),
      userId: user.id,
      lifetimeMs: loginChallengeTtlMs,
    });
    return { status: 'second_factor_required', challengeToken };
  }
  const token = await deps.db.transaction((tx) => openSignedInSession(deps, tx, user.id, client));
  deps.mailer.kick();
  return { status: 'signed_in', user: toMe(user, deps.config, deps.terms), sessionToken: token };
}

/**
 * Checks a second-factor code: the current authenticator code (each 30-second code works
 * once), or an unused recovery code (spent by this call). Runs in the caller's transaction.
 */
export async function verifySecondFactor(
  deps: AuthDeps,
  tx: Queryable,
  user: UserRow,
  code: string,
): Promise<boolean> {
  if (!user.totp_secret_encrypted) return false;
  const secret = decryptSecret(user.totp_secret_encrypted, deps.config.secretKeys);
  const step = matchingTotpStep(secret, code.trim());
  if (step !== null) {
    return acceptTotpStep(tx, user.id, step);
  }
  return spendRecoveryCode(tx, user.id, sha256Hex(normalizeRecoveryCode(code)));
}

/**
 * The second step of a login. A code uses up one of the challenge's five tries before it
 * is checked (a right code too: the challenge is spent with it), and one of the client
 * address's second-factor failures, given back when it is right.
 */
export async function completeSecondFactor(
  deps: AuthDeps,
  body: { challengeToken: string; code: string },
  client: Client,
): Promise<Extract<LoginResult, { status: 'signed_in' }>> {
  return countingFailures(
    deps.db,
    failureLimits.secondFactor,
    client.ipAddress,
    ['wrong_code'],
    () => checkSecondFactor(deps, body, client),
  );
}

async function checkSecondFactor(
  deps: AuthDeps,
  body: { challengeToken: string; code: string },
  client: Client,
): Promise<Extract<LoginResult, { status: 'signed_in' }>> {
  const challengeHash = sha256Hex(body.challengeToken);
  if (!(await spendLoginChallengeTry(deps.db, challengeHash, loginChallengeAttemptsMax))) {
    if (await isLoginChallengeLive(deps.db, challengeHash)) throw new AppError('too_many_attempts');
    throw new AppError('link_expired', {
      message: 'Your sign-in took too long. Please start again.',
    });
  }
  const result = await deps.db.transaction(async (tx) => {
    // Two right codes at once (an authenticator code and a recovery code) sign in once.
    const challengeUserId = await lockLoginChallenge(tx, challengeHash);
    if (!challengeUserId) return null;
    const user = await requireUser(tx, challengeUserId);
    if (!(await verifySecondFactor(deps, tx, user, body.code))) return null;
    await markLoginChallengeUsed(tx, challengeHash);
    return { user, token: await openSignedInSession(deps, tx, user.id, client) };
  });
  if (!result) throw new AppError('wrong_code');
  deps.mailer.kick();
  return {
    status: 'signed_in',
    user: toMe(result.user, deps.config, deps.terms),
    sessionToken: result.token,
  };
}

/**
 * What every way of signing in ends with, in its transaction: the audit event, the new
 * device's notice and the session; answers the session's token.
 */
export async function openSignedInSession(
  deps: AuthDeps,
  tx: Queryable,
  userId: string,
  client: Client,
): Promise<string> {
  // Every way of signing in (password, second factor, passkey) ends here.
  await refuseClosedAccount(tx, userId);
  await recordAudit(tx, {
    action: 'login_succeeded',
    actorUserId: userId,
    subjectUserId: userId,
    ipAddress: client.ipAddress,
  });
  await notifyIfNewDevice(deps, tx, userId, client);
  return (await createSession(tx, { userId, ...client })).token;
}

/**
 * A sign-in from a browser that has never held a session of an account that has had
 * sessions is a security event: the person hears of it (always by email) in the sign-in's transaction. Called
 * before the new session is created.
 */
async function notifyIfNewDevice(deps: AuthDeps, tx: Queryable, userId: string, client: Client) {
  // A first sign-in ever (a staff account just created) has no device to compare with.
  const history = await deviceHistoryOf(tx, userId, client.userAgent ?? null);
  if (!history.hasSessions || history.isKnownDevice) return;
  await notify(
    tx,
    {
      userId,
      kind: 'new_device_sign_in',
      text: `New sign-in to your account from ${describeDevice(client.userAgent ?? null)} (${client.ipAddress}). If this was not you, change your password now.`,
      link: '/profile',
    },
    deps.config,
  );
}

export function toLoginResponse(result: LoginResult): LoginResponse {
  return result.status === 'signed_in'
    ? { status: 'signed_in', user: result.user }
    : { status: 'second_factor_required', challengeToken: result.challengeToken };
}

export async function verifyEmail(deps: AuthDeps, token: string): Promise<Me> {
  const userId = await deps.db.transaction(async (tx) => {
    const consumed = await consumeEmailToken(tx, token, 'verify_email');
    if (!consumed) throw new AppError('link_expired');
    // A verified new address replaces the old one; someone may have taken it meanwhile.
    if (!(await replaceEmailVerified(tx, consumed.userId, consumed.email))) {
      throw new AppError('email_in_use');
    }
    if (consumed.previousEmail !== consumed.email) {
      await recordAudit(tx, {
        action: 'email_changed',
        actorUserId: consumed.userId,
        subjectUserId: consumed.userId,
        before: { email: consumed.previousEmail },
        after: { email: consumed.email },
      });
      await notify(
        tx,
        {
          userId: consumed.userId,
          kind: 'email_changed',
          text: `The email address of your account is now ${consumed.email}. If you did not ask for this, contact support now.`,
          link: '/profile',
        },
        deps.config,
      );
    }
    return consumed.userId;
  });
  deps.mailer.kick();
  return toMe(await requireUser(deps.db, userId), deps.config, deps.terms);
}

export async function resendVerification(deps: AuthDeps, userId: string): Promise<void> {
  const user = await requireUser(deps.db, userId);
  if (user.email_verified_at) return;
  await deps.db.transaction((tx) => sendVerificationEmail(deps, tx, user, user.email));
  deps.mailer.kick();
}

/**
 * Sends a reset link if the address has an account. The caller answers before this
 * finishes, so neither the answer nor its timing says whether the account exists.
 */
export async function requestPasswordReset(deps: AuthDeps, email: string): Promise<void> {
  const user = await findUserByEmail(deps.db, email);
  if (!user) return;
  await deps.db.transaction(async (tx) => {
    const token = await createEmailToken(tx, {
      userId: user.id,
      purpose: 'reset_password',
      email: user.email,
    });
    await enqueueEmail(
      tx,
      passwordResetEmail({
        to: user.email,
        username: user.username,
        institutionName: deps.site.institutionName,
        url: linkTo(deps.config, '/reset-password', token),
      }),
    );
  });
  deps.mailer.kick();
}

/** Sets the new password from a reset link and signs the account out everywhere. */
export async function resetPassword(
  deps: AuthDeps,
  body: { token: string; password: string },
): Promise<void> {
  const passwordHash = await hashPassword(body.password);
  await deps.db.transaction(async (tx) => {
    const consumed = await consumeEmailToken(tx, body.token, 'reset_password');
    if (!consumed) throw new AppError('link_expired');
    const user = await requireUser(tx, consumed.userId);
    assertPasswordStrong(body.password, [user.username, user.email]);
    await updatePasswordHash(tx, user.id, passwordHash);
    await revokeUserSessions(tx, user.id);
    await recordAudit(tx, {
      action: 'password_reset',
      actorUserId: user.id,
      subjectUserId: user.id,
    });
    // Following the emailed link proves the address, too.
    await markEmailVerified(tx, user.id, consumed.email);
  });
}
