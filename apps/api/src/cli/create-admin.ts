// npm run create-admin -- --email admin@bank.example [--username "Name"] [--country US]
// The password comes from COFFER_ADMIN_PASSWORD, or a strong one is generated and printed once;
// either way someone else has seen it, so the admin must change it at first sign-in.
// It makes the first two admins only: four-eyes role grants need two to begin with, and
// every admin after them is granted in the back office and approved by a second admin.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { emailSchema, usernameSchema } from '@coffer/contracts/auth';
import { findCountry } from '@coffer/contracts/countries';
import { estimatePasswordStrength } from '@coffer/contracts/password-strength';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { insertUser } from '../features/auth/queries.ts';
import { newId } from '../platform/ids.ts';
import { hashPassword } from '../platform/passwords.ts';
import { fail, loadConfigOrFail } from './settings.ts';

/** The admins four-eyes needs to grant roles at all; more are granted in the back office. */
const adminsMadeByCommandMax = 2;

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    username: { type: 'string', default: 'Administrator' },
    country: { type: 'string', default: 'US' },
  },
});

const email = emailSchema.safeParse(values.email ?? '');
if (!email.success)
  fail(
    'Usage: npm run create-admin -- --email admin@bank.example [--username "Name"] [--country US]',
  );
const username = usernameSchema.safeParse(values.username);
if (!username.success) fail(`--username: ${username.error.issues[0]?.message}`);
const country = findCountry(values.country ?? 'US');
if (!country) fail(`--country: ${values.country} is not an ISO country code`);

const givenPassword = process.env.COFFER_ADMIN_PASSWORD;
const password = givenPassword ?? randomBytes(18).toString('base64url');
if (!estimatePasswordStrength(password, [email.data, username.data]).isStrongEnough) {
  fail('COFFER_ADMIN_PASSWORD is too weak: use a long, unguessable password.');
}

const config = loadConfigOrFail();
const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  poolSize: 2,
  dataDir: config.dataDir,
});
try {
  await migrate(db);
  const passwordHash = await hashPassword(password);
  const outcome = await db.transaction(async (tx) => {
    const admins = await tx.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM users WHERE role = 'admin'",
    );
    if ((admins.rows[0]?.count ?? 0) >= adminsMadeByCommandMax) return 'enough_admins';
    const id = newId();
    const isInserted = await insertUser(tx, {
      id,
      username: username.data,
      email: email.data,
      phone: null,
      country: country.code,
      role: 'admin',
      passwordHash,
      isEmailVerified: true,
    });
    if (!isInserted) return 'email_taken';
    await tx.query('UPDATE users SET must_change_password = true WHERE id = $1', [id]);
    return 'created';
  });
  if (outcome === 'enough_admins') {
    fail(
      'There are two admins already: this command would let one person add an admin alone. Make another admin in the back office instead (Admin, open the person, Change role): a role grant takes effect once a second admin approves it.',
    );
  }
  if (outcome === 'email_taken') fail(`${email.data} already has an account; nothing was changed.`);
  console.log(`Created admin ${email.data}.`);
  if (!givenPassword) console.log(`Password (shown once, change it after signing in): ${password}`);
  console.log('They must choose a new password when they first sign in.');
  if (config.isStaffTwoFactorRequired) {
    console.log(
      'The back office opens once they set up two-factor authentication on their profile.',
    );
  }
} finally {
  await db.close();
}
