import type { PasskeyAssertion, PasskeyOptions } from '@coffer/contracts/passkeys';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { RelyingParty } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../platform/app-error.ts';
import { newId } from '../platform/ids.ts';
import {
  claimPasskeyChallenge,
  findPasskeyByCredentialId,
  insertPasskeyChallenge,
  type PasskeyFlow,
  passkeysOf,
  recordPasskeyUse,
} from './queries.ts';

/** Long enough to find the security key, short enough that a leaked one soon opens nothing. */
export const passkeyChallengeLifetimeMs = 5 * 60 * 1000;

export type PasskeyDeps = {
  db: Queryable;
  config: { relyingParty: RelyingParty | null };
  site: { institutionName: string };
};

/** What a challenge is for: its flow, who it was made for and what it confirms. */
export type ChallengeScope = { flow: PasskeyFlow; userId: string | null; binding: string | null };

function relyingPartyOf(deps: PasskeyDeps): RelyingParty {
  if (!deps.config.relyingParty) throw new AppError('passkeys_unavailable');
  return deps.config.relyingParty;
}

function refused(): AppError {
  return new AppError('passkey_refused');
}

const toTransports = (transports: string[]) => transports as AuthenticatorTransport[];

/**
 * Options to create a passkey for a signed-in user who has just given their password
 * again: resident (discoverable, for passwordless sign-in), user-verifying, and not one
 * of the authenticators they registered already.
 */
export async function registrationOptionsFor(
  deps: PasskeyDeps,
  user: { id: string; email: string; username: string },
): Promise<PasskeyOptions> {
  const relyingParty = relyingPartyOf(deps);
  const existing = await passkeysOf(deps.db, user.id);
  const options = await generateRegistrationOptions({
    rpName: deps.site.institutionName,
    rpID: relyingParty.id,
    userID: new TextEncoder().encode(user.id),
    userName: user.email,
    userDisplayName: user.username,
    attestationType: 'none',
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.credential_id,
      transports: toTransports(passkey.transports),
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: passkeyChallengeLifetimeMs,
  });
  await saveChallenge(deps, { flow: 'registration', userId: user.id, binding: null }, options);
  return options as unknown as PasskeyOptions;
}

/** The new passkey's credential, once its answer checks out against a live challenge. */
export async function verifyRegistration(
  deps: PasskeyDeps,
  userId: string,
  response: RegistrationResponseJSON,
): Promise<{ credentialId: string; publicKey: string; signCount: number; transports: string[] }> {
  const relyingParty = relyingPartyOf(deps);
  const challenge = challengeSignedBy(response.response.clientDataJSON);
  const scope: ChallengeScope = { flow: 'registration', userId, binding: null };
  if (!(await claimPasskeyChallenge(deps.db, { ...scope, challenge }))) throw refused();
  const verification = await verifyOrRefuse(() =>
    verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      requireUserVerification: true,
    }),
  );
  if (!verification.verified) throw refused();
  const { credential } = verification.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    signCount: credential.counter,
    transports: credential.transports ?? response.response.transports ?? [],
  };
}

/**
 * Options to sign with a passkey. With a user, only their passkeys are offered; without
 * one (passwordless sign-in) the browser offers any passkey it holds for this site.
 */
export async function authenticationOptionsFor(
  deps: PasskeyDeps,
  scope: ChallengeScope,
): Promise<PasskeyOptions> {
  const relyingParty = relyingPartyOf(deps);
  const allowed = scope.userId ? await passkeysOf(deps.db, scope.userId) : [];
  if (scope.userId && allowed.length === 0) throw new AppError('not_found');
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    userVerification: 'required',
    allowCredentials: allowed.map((passkey) => ({
      id: passkey.credential_id,
      transports: toTransports(passkey.transports),
    })),
    timeout: passkeyChallengeLifetimeMs,
  });
  await saveChallenge(deps, scope, options);
  return options as unknown as PasskeyOptions;
}

/**
 * Checks a passkey's answer: the challenge it signed must be live and made for this scope
 * (spent by this check, so a replay is refused), the passkey must be registered (to the
 * scope's user, when it names one), signed for our origin and relying party with the user
 * verified, and its counter must move forward. Answers whose passkey it was.
 */
export async function verifyAssertion(
  deps: PasskeyDeps,
  scope: ChallengeScope,
  response: PasskeyAssertion,
): Promise<{ userId: string; passkeyId: string }> {
  const relyingParty = relyingPartyOf(deps);
  const challenge = challengeSignedBy(response.response.clientDataJSON);
  if (!(await claimPasskeyChallenge(deps.db, { ...scope, challenge }))) throw refused();
  const passkey = await findPasskeyByCredentialId(deps.db, response.id);
  if (!passkey || (scope.userId !== null && passkey.user_id !== scope.userId)) throw refused();
  if (response.response.userHandle !== undefined && !isUserHandleOf(response, passkey.user_id)) {
    throw refused();
  }
  const verification = await verifyOrRefuse(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: relyingParty.origin,
      expectedRPID: relyingParty.id,
      credential: {
        id: passkey.credential_id,
        publicKey: Buffer.from(passkey.public_key, 'base64url'),
        counter: Number(passkey.sign_count),
        transports: toTransports(passkey.transports),
      },
      requireUserVerification: true,
    }),
  );
  if (!verification.verified) throw refused();
  const newSignCount = verification.authenticationInfo.newCounter;
  if (!(await recordPasskeyUse(deps.db, passkey.id, newSignCount))) throw refused();
  return { userId: passkey.user_id, passkeyId: passkey.id };
}

async function saveChallenge(
  deps: PasskeyDeps,
  scope: ChallengeScope,
  options: { challenge: string },
): Promise<void> {
  await insertPasskeyChallenge(deps.db, {
    id: newId(),
    ...scope,
    challenge: options.challenge,
    lifetimeMs: passkeyChallengeLifetimeMs,
  });
}

/** The challenge a browser's answer says it signed; the signature check proves it later. */
function challengeSignedBy(clientDataJson: string): string {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(clientDataJson, 'base64url').toString());
    const challenge = (clientData as { challenge?: unknown }).challenge;
    if (typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200) {
      return challenge;
    }
  } catch {
    // Not JSON: refused below, as any answer that names no challenge.
  }
  throw refused();
}

function isUserHandleOf(response: PasskeyAssertion, userId: string): boolean {
  const handle = response.response.userHandle ?? '';
  return Buffer.from(handle, 'base64url').toString() === userId;
}

/** The library throws on every malformed or mismatched answer: each is a refusal, not a 500. */
async function verifyOrRefuse<T>(verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch {
    throw refused();
  }
}
