// A benchmark's admin: a user row and a session token, made straight in the database so
// the timed requests are the only ones the API sees.
import type { Database } from '../../apps/api/src/db/client.ts';
import { insertUser } from '../../apps/api/src/features/auth/queries.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { createSession } from '../../apps/api/src/platform/sessions.ts';

/** A new admin with `email` and no authenticator; returns its session token. */
export async function benchAdminSessionToken(db: Database, email: string): Promise<string> {
  const adminId = newId();
  await insertUser(db, {
    id: adminId,
    username: 'Bench Admin',
    email,
    phone: null,
    country: 'US',
    role: 'admin',
    passwordHash: 'not-a-hash',
    isEmailVerified: true,
  });
  const { token } = await createSession(db, {
    userId: adminId,
    userAgent: 'bench',
    ipAddress: '127.0.0.1',
  });
  return token;
}
