import type { Passkey, PasskeyOptions } from '@coffer/contracts/passkeys';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Queryable } from '../../db/client.ts';
import {
  deletePasskey,
  insertPasskey,
  type PasskeyRow,
  passkeysOf,
  renamePasskey,
} from '../../passkeys/queries.ts';
import { registrationOptionsFor, verifyRegistration } from '../../passkeys/webauthn.ts';
import { AppError } from '../../platform/app-error.ts';
import { countingFailures } from '../../platform/attempt-counters.ts';
import { recordAudit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import { failureLimits } from '../../platform/rate-limits.ts';
import type { AuthDeps, Client } from '../auth/service.ts';
import { reauthenticate, requireUser } from './service.ts';

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}

export async function listPasskeys(deps: AuthDeps, userId: string): Promise<Passkey[]> {
  return (await passkeysOf(deps.db, userId)).map(toPasskey);
}

/** Adding a passkey is a security change: the password again, then the authenticator. */
export async function startPasskeyRegistration(
  deps: AuthDeps,
  userId: string,
  currentPassword: string,
): Promise<PasskeyOptions> {
  const user = await requireUser(deps, userId);
  await reauthenticate(user, currentPassword);
  return registrationOptionsFor(deps, user);
}

/**
 * Keeps the new passkey once its answer checks out against the challenge the password
 * opened; the person is told by email (always) and the audit log records it.
 */
export async function finishPasskeyRegistration(
  deps: AuthDeps,
  userId: string,
  body: { name: string; response: RegistrationResponseJSON },
  client: Client,
): Promise<Passkey[]> {
  await countingFailures(
    deps.db,
    failureLimits.passkey,
    client.ipAddress,
    ['passkey_refused'],
    async () => {
      const credential = await verifyRegistration(deps, userId, body.response);
      await deps.db.transaction(async (tx) => {
        const passkeyId = newId();
        const isInserted = await insertPasskey(tx, {
          id: passkeyId,
          userId,
          name: body.name,
          ...credential,
        });
        if (!isInserted) throw new AppError('passkey_refused');
        await recordAudit(tx, {
          action: 'passkey_added',
          actorUserId: userId,
          subjectUserId: userId,
          after: { passkeyId, name: body.name },
          ipAddress: client.ipAddress,
        });
        await notifyPasskeyChange(deps, tx, userId, 'passkey_added', body.name);
      });
    },
  );
  deps.mailer.kick();
  return listPasskeys(deps, userId);
}

export async function renameUserPasskey(
  deps: AuthDeps,
  userId: string,
  passkeyId: string,
  name: string,
): Promise<Passkey[]> {
  await deps.db.transaction(async (tx) => {
    const before = await renamePasskey(tx, userId, passkeyId, name);
    if (before === null) throw new AppError('not_found');
    await recordAudit(tx, {
      action: 'passkey_renamed',
      actorUserId: userId,
      subjectUserId: userId,
      before: { passkeyId, name: before },
      after: { passkeyId, name },
    });
  });
  return listPasskeys(deps, userId);
}

/** Removing one asks for the password again; someone else's passkey is not found. */
export async function removeUserPasskey(
  deps: AuthDeps,
  userId: string,
  passkeyId: string,
  currentPassword: string,
  client: Client,
): Promise<Passkey[]> {
  const user = await requireUser(deps, userId);
  await reauthenticate(user, currentPassword);
  await deps.db.transaction(async (tx) => {
    const name = await deletePasskey(tx, userId, passkeyId);
    if (name === null) throw new AppError('not_found');
    await recordAudit(tx, {
      action: 'passkey_removed',
      actorUserId: userId,
      subjectUserId: userId,
      before: { passkeyId, name },
      ipAddress: client.ipAddress,
    });
    await notifyPasskeyChange(deps, tx, userId, 'passkey_removed', name);
  });
  deps.mailer.kick();
  return listPasskeys(deps, userId);
}

function notifyPasskeyChange(
  deps: AuthDeps,
  tx: Queryable,
  userId: string,
  kind: 'passkey_added' | 'passkey_removed',
  name: string,
): Promise<void> {
  const text =
    kind === 'passkey_added'
      ? `A passkey ("${name}") was added to your account: it can now sign in without your password. If this was not you, remove it on your profile and change your password now.`
      : `The passkey "${name}" was removed from your account. If this was not you, change your password now.`;
  return notify(tx, { userId, kind, text, link: '/profile' }, deps.config);
}
