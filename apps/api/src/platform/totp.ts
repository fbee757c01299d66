import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

const periodSeconds = 30;
const digits = 6;
// One step either side absorbs a phone clock that is up to 30 s off.
const windowSteps = 1;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label = 'Coffer', issuer = 'Coffer'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits,
    period: periodSeconds,
    secret: Secret.fromBase32(secretBase32),
  });
}

export function otpauthUrl(secretBase32: string, label: string, issuer: string): string {
  return totp(secretBase32, label, issuer).toString();
}

/**
 * The 30-second step a code belongs to, or null when it matches none near now. Callers
 * accept a step only if it is later than the last one used, so a code works once.
 */
export function matchingTotpStep(
  secretBase32: string,
  code: string,
  nowMs = Date.now(),
): bigint | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secretBase32).validate({ token: code, timestamp: nowMs, window: windowSteps });
  if (delta === null) return null;
  return BigInt(Math.floor(nowMs / 1000 / periodSeconds) + delta);
}

export const recoveryCodeCount = 10;
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes like "k7m2p-q9xra": 50 bits each, easy to read aloud, no 0/o or 1/l. */
export function generateRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const bytes = randomBytes(10);
    const characters = [...bytes].map((byte) => recoveryAlphabet[byte % recoveryAlphabet.length]);
    return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
  });
}

export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/\s+/g, '');
}
