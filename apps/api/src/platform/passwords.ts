import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id settings: 19 MiB of memory, 2 passes, 1 lane.
const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when no account matches costs the same time as a real check,
// so response times do not tell whether an email address has an account.
let unknownUserHash: Promise<string> | undefined;
export async function verifyAgainstNobody(password: string): Promise<false> {
  unknownUserHash ??= hashPassword('no account has this password');
  await verifyPassword(await unknownUserHash, password);
  return false;
}
