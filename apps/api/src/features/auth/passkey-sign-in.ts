import type { PasskeyAssertion, PasskeyOptions } from '@coffer/contracts/passkeys';
import { authenticationOptionsFor, verifyAssertion } from '../../passkeys/webauthn.ts';
import { AppError } from '../../platform/app-error.ts';
import { countingFailures } from '../../platform/attempt-counters.ts';
import { sha256Hex } from '../../platform/crypto.ts';
import { failureLimits } from '../../platform/rate-limits.ts';
import {
  liveLoginChallengeUser,
  lockLoginChallenge,
  markLoginChallengeUsed,
  spendLoginChallengeTry,
  toMe,
} from './queries.ts';
import {
  type AuthDeps,
  type Client,
  type LoginResult,
  loginChallengeAttemptsMax,
  openSignedInSession,
  requireUser,
} from './service.ts';

type SignedIn = Extract<LoginResult, { status: 'signed_in' }>;

const passwordlessScope = { flow: 'sign_in', userId: null, binding: null } as const;

const challengeExpired = () =>
  new AppError('link_expired', { message: 'Your sign-in took too long. Please start again.' });

/** "Sign in with a passkey": the browser offers whichever passkey of this site it holds. */
export function passkeySignInOptions(deps: AuthDeps): Promise<PasskeyOptions> {
  return authenticationOptionsFor(deps, passwordlessScope);
}

/**
 * A passwordless sign-in: the passkey names its user, and its user verification (PIN or
 * biometrics on the device) is the second factor. Refusals count toward the address's
 * passkey failures, as wrong passwords count toward its login failures.
 */
export function signInWithPasskey(
  deps: AuthDeps,
  response: PasskeyAssertion,
  client: Client,
): Promise<SignedIn> {
  return countingFailures(
    deps.db,
    failureLimits.passkey,
    client.ipAddress,
    ['passkey_refused'],
    async () => {
      const { userId } = await verifyAssertion(deps, passwordlessScope, response);
      const token = await deps.db.transaction((tx) =>
        openSignedInSession(deps, tx, userId, client),
      );
      deps.mailer.kick();
      const user = await requireUser(deps.db, userId);
      return {
        status: 'signed_in',
        user: toMe(user, deps.config, deps.terms),
        sessionToken: token,
      };
    },
  );
}

/** A password sign-in's second step answered by one of the account's passkeys. */
export async function secondFactorPasskeyOptions(
  deps: AuthDeps,
  challengeToken: string,
): Promise<PasskeyOptions> {
  const challengeHash = sha256Hex(challengeToken);
  const userId = await liveLoginChallengeUser(deps.db, challengeHash);
  if (!userId) throw challengeExpired();
  return authenticationOptionsFor(deps, { flow: 'second_factor', userId, binding: challengeHash });
}

/**
 * Checks the passkey's answer for this login challenge, which spends one of its tries
 * first, as a code does; the challenge is then used once, under its row lock.
 */
export function completeSecondFactorWithPasskey(
  deps: AuthDeps,
  body: { challengeToken: string; response: PasskeyAssertion },
  client: Client,
): Promise<SignedIn> {
  return countingFailures(
    deps.db,
    failureLimits.secondFactor,
    client.ipAddress,
    ['passkey_refused'],
    async () => {
      const challengeHash = sha256Hex(body.challengeToken);
      const userId = await liveLoginChallengeUser(deps.db, challengeHash);
      if (!userId) throw challengeExpired();
      if (!(await spendLoginChallengeTry(deps.db, challengeHash, loginChallengeAttemptsMax))) {
        throw new AppError('too_many_attempts');
      }
      const scope = { flow: 'second_factor', userId, binding: challengeHash } as const;
      await verifyAssertion(deps, scope, body.response);
      const token = await deps.db.transaction(async (tx) => {
        if ((await lockLoginChallenge(tx, challengeHash)) !== userId) throw challengeExpired();
        await markLoginChallengeUsed(tx, challengeHash);
        return openSignedInSession(deps, tx, userId, client);
      });
      deps.mailer.kick();
      const user = await requireUser(deps.db, userId);
      return {
        status: 'signed_in',
        user: toMe(user, deps.config, deps.terms),
        sessionToken: token,
      };
    },
  );
}
