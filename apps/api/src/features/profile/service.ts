import { findCountry } from '@coffer/contracts/countries';
import { languageNotOfferedMessage } from '@coffer/contracts/language-choice';
import type { Language } from '@coffer/contracts/languages';
import type { Profile, SessionInfo } from '@coffer/contracts/profile';
import QRCode from 'qrcode';
import { findUserById, timeZoneOfUser, type UserRow } from '../../customers/queries.ts';
import { isTwoFactorRequiredFor } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { decryptSecret, encryptSecret, sha256Hex } from '../../platform/crypto.ts';
import { enqueueEmail } from '../../platform/mail.ts';
import { notify } from '../../platform/notifications.ts';
import { hashPassword, verifyPassword } from '../../platform/passwords.ts';
import {
  createSession,
  revokeSession,
  revokeUserSessions,
  type SessionContext,
} from '../../platform/sessions.ts';
import {
  generateRecoveryCodes,
  matchingTotpStep,
  newTotpSecret,
  otpauthUrl,
} from '../../platform/totp.ts';
import { describeDevice } from '../../platform/user-agent.ts';
import { findPendingEmail } from '../auth/email-tokens.ts';
import { emailChangeNotice, passwordChangedNotice } from '../auth/emails.ts';
import { currencyOf, isEmailTaken, updatePasswordHash } from '../auth/queries.ts';
import {
  type AuthDeps,
  assertPasswordStrong,
  type Client,
  sendVerificationEmail,
  verifySecondFactor,
} from '../auth/service.ts';
import {
  activeSessionsOf,
  confirmTotp,
  lockTimeZone,
  lockUsername,
  removeTotp,
  saveLanguage,
  saveTimeZone,
  saveUsername,
  setPendingTotpSecret,
} from './queries.ts';

export async function requireUser(deps: AuthDeps, userId: string): Promise<UserRow> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('unauthenticated');
  return user;
}

/** Sensitive changes ask for the current password again. */
export async function reauthenticate(user: UserRow, currentPassword: string): Promise<void> {
  if (!(await verifyPassword(user.password_hash, currentPassword))) {
    throw new AppError('wrong_password', {
      fields: { currentPassword: 'Your current password is not correct.' },
    });
  }
}

export async function getProfile(deps: AuthDeps, userId: string): Promise<Profile> {
  const user = await requireUser(deps, userId);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    isEmailVerified: user.email_verified_at !== null,
    pendingEmail: await findPendingEmail(deps.db, user.id, user.email),
    phone: user.phone,
    country: user.country,
    countryName: findCountry(user.country)?.name ?? user.country,
    currency: currencyOf(user),
    timeZone: timeZoneOfUser(user, deps.config),
    isTimeZoneChosen: user.time_zone !== null,
    level: user.level,
    role: user.role,
    hasTotp: user.totp_secret_encrypted !== null,
    accountNumber: user.wallet_number,
    createdAt: user.created_at.toISOString(),
  };
}

/** Renames the user; the change is in their "Activity on your account", old and new name. */
export async function updateUsername(
  deps: AuthDeps,
  userId: string,
  username: string,
): Promise<Profile> {
  await deps.db.transaction(async (tx) => {
    // Locked, so that two renames at once each record the name they replaced.
    const before = await lockUsername(tx, userId);
    if (before === null) throw new AppError('unauthenticated');
    if (before === username) return;
    await saveUsername(tx, userId, username);
    await recordAudit(tx, {
      action: 'username_changed',
      actorUserId: userId,
      subjectUserId: userId,
      before: { username: before },
      after: { username },
    });
  });
  return getProfile(deps, userId);
}

/** The zone statements cut days in and times are shown in; audited as the customer's own. */
export async function updateTimeZone(
  deps: AuthDeps,
  userId: string,
  timeZone: string,
): Promise<Profile> {
  await deps.db.transaction(async (tx) => {
    const before = await lockTimeZone(tx, userId);
    if (before === undefined) throw new AppError('unauthenticated');
    if (before === timeZone) return;
    await saveTimeZone(tx, userId, timeZone);
    await recordAudit(tx, {
      action: 'time_zone_changed',
      actorUserId: userId,
      subjectUserId: userId,
      before: { timeZone: before },
      after: { timeZone },
    });
  });
  return getProfile(deps, userId);
}

/**
 * The language the person's app, emails and statements are in. Only a language the operator
 * enabled (COFFER_LANGUAGES) may be chosen. A preference, not a security change: no audit.
 */
export async function updateLanguage(
  deps: AuthDeps,
  userId: string,
  language: Language,
): Promise<Language> {
  if (!deps.config.languages.includes(language)) {
    throw new AppError('validation_failed', {
      message: languageNotOfferedMessage,
      fields: { language: languageNotOfferedMessage },
    });
  }
  const isSaved = await saveLanguage(deps.db, userId, language);
  if (!isSaved) throw new AppError('unauthenticated');
  return language;
}

/** The new address takes effect when its verification link is followed. */
export async function requestEmailChange(
  deps: AuthDeps,
  userId: string,
  body: { newEmail: string; currentPassword: string },
): Promise<Profile> {
  const user = await requireUser(deps, userId);
  await reauthenticate(user, body.currentPassword);
  if (body.newEmail === user.email) {
    throw new AppError('validation_failed', {
      message: 'That is already your email address.',
      fields: { newEmail: 'That is already your email address.' },
    });
  }
  if (await isEmailTaken(deps.db, body.newEmail))
    throw new AppError('email_in_use', { fields: { newEmail: 'Email already in use' } });
  await deps.db.transaction(async (tx) => {
    await sendVerificationEmail(deps, tx, user, body.newEmail);
    await recordAudit(tx, {
      action: 'email_change_requested',
      actorUserId: user.id,
      subjectUserId: user.id,
      before: { email: user.email },
      after: { email: body.newEmail },
    });
    await enqueueEmail(
      tx,
      emailChangeNotice({
        to: user.email,
        username: user.username,
        institutionName: deps.site.institutionName,
        newEmail: body.newEmail,
      }),
    );
  });
  deps.mailer.kick();
  return getProfile(deps, userId);
}

/** Changes the password and rotates this session's id; returns the new session token. */
export async function changePassword(
  deps: AuthDeps,
  session: SessionContext,
  body: { currentPassword: string; newPassword: string; endOtherSessions: boolean },
  client: Client,
): Promise<string> {
  const user = await requireUser(deps, session.userId);
  await reauthenticate(user, body.currentPassword);
  assertPasswordStrong(body.newPassword, [user.username, user.email], 'newPassword');
  const passwordHash = await hashPassword(body.newPassword);
  const token = await deps.db.transaction(async (tx) => {
    await updatePasswordHash(tx, user.id, passwordHash);
    await recordAudit(tx, {
      action: 'password_changed',
      actorUserId: user.id,
      subjectUserId: user.id,
      ipAddress: client.ipAddress,
    });
    if (body.endOtherSessions) await revokeUserSessions(tx, user.id);
    else await revokeSession(tx, user.id, session.sessionId);
    const notice = passwordChangedNotice({
      to: user.email,
      username: user.username,
      institutionName: deps.site.institutionName,
    });
    await notify(
      tx,
      {
        userId: user.id,
        kind: 'password_changed',
        text: 'The password of your account was changed. If this was not you, reset it now and contact support.',
        link: '/profile',
        email: notice,
      },
      deps.config,
    );
    return (await createSession(tx, { userId: user.id, ...client })).token;
  });
  deps.mailer.kick();
  return token;
}

export async function startTotpSetup(deps: AuthDeps, userId: string, currentPassword: string) {
  const user = await requireUser(deps, userId);
  await reauthenticate(user, currentPassword);
  if (user.totp_secret_encrypted) throw new AppError('totp_state_conflict');
  const secret = newTotpSecret();
  await setPendingTotpSecret(deps.db, userId, encryptSecret(secret, deps.config.secretKeys));
  const url = otpauthUrl(secret, user.email, deps.site.institutionName);
  const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return {
    secret,
    otpauthUrl: url,
    qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
  };
}

/** Confirms enrolment with a first code; returns ten recovery codes, shown once. */
export async function enableTotp(deps: AuthDeps, userId: string, code: string): Promise<string[]> {
  const user = await requireUser(deps, userId);
  if (user.totp_secret_encrypted) throw new AppError('totp_state_conflict');
  if (!user.totp_pending_secret_encrypted) {
    throw new AppError('link_expired', {
      message: 'Start the set-up again: no authenticator key is waiting.',
    });
  }
  const secret = decryptSecret(user.totp_pending_secret_encrypted, deps.config.secretKeys);
  const step = matchingTotpStep(secret, code);
  if (step === null)
    throw new AppError('wrong_code', {
      fields: { code: 'Wrong verification code. Please try again.' },
    });
  const recoveryCodes = generateRecoveryCodes();
  await deps.db.transaction(async (tx) => {
    await confirmTotp(tx, userId, {
      firstStep: step,
      recoveryCodeHashes: recoveryCodes.map(sha256Hex),
    });
    await recordAudit(tx, { action: 'totp_enabled', actorUserId: userId, subjectUserId: userId });
    await notify(
      tx,
      {
        userId,
        kind: 'two_factor_enabled',
        text: 'Two-factor authentication was turned on for your account.',
        link: '/profile',
      },
      deps.config,
    );
  });
  deps.mailer.kick();
  return recoveryCodes;
}

export async function disableTotp(deps: AuthDeps, userId: string, code: string): Promise<void> {
  const user = await requireUser(deps, userId);
  if (!user.totp_secret_encrypted) throw new AppError('totp_state_conflict');
  // Refused before the code is checked: nobody spends a recovery code only to be told no.
  if (isTwoFactorRequiredFor(user.role, deps.config)) {
    throw new AppError('staff_two_factor_stays_on');
  }
  await deps.db.transaction(async (tx) => {
    if (!(await verifySecondFactor(deps, tx, user, code))) {
      throw new AppError('wrong_code', {
        fields: { code: 'Wrong verification code. Please try again.' },
      });
    }
    await removeTotp(tx, userId);
    await recordAudit(tx, { action: 'totp_disabled', actorUserId: userId, subjectUserId: userId });
    await notify(
      tx,
      {
        userId,
        kind: 'two_factor_disabled',
        text: 'Two-factor authentication was turned off for your account. If this was not you, change your password now.',
        link: '/profile',
      },
      deps.config,
    );
  });
  deps.mailer.kick();
}

export async function listSessions(
  deps: AuthDeps,
  session: SessionContext,
): Promise<SessionInfo[]> {
  const rows = await activeSessionsOf(deps.db, session.userId);
  return rows.map((row) => ({
    id: row.id,
    device: describeDevice(row.user_agent),
    ipAddress: row.ip_address,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at.toISOString(),
    isCurrent: row.id === session.sessionId,
  }));
}
