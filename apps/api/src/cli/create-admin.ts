// npm run create-admin -- --email admin@bank.example [--username "Name"] [--country US]
// The password comes from COFFER_ADMIN_PASSWORD, or a strong one is generated and printed once.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { emailSchema, usernameSchema } from '@coffer/contracts/auth';
import { findCountry } from '@coffer/contracts/countries';
import { estimatePasswordStrength } from '@coffer/contracts/password-strength';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { insertUser } from '../features/auth/queries.ts';
import { newId } from '../platform/ids.ts';
import { hashPassword } from '../platform/passwords.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

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

const config = loadConfig();
const db = await openDatabase({
  databaseUrl: config.databaseUrl,
  poolSize: 2,
  dataDir: config.dataDir,
});
try {
  await migrate(db);
  const isCreated = await insertUser(db, {
    id: newId(),
    username: username.data,
    email: email.data,
    phone: null,
    country: country.code,
    role: 'admin',
    passwordHash: await hashPassword(password),
    isEmailVerified: true,
  });
  if (!isCreated) fail(`${email.data} already has an account; nothing was changed.`);
  console.log(`Created admin ${email.data}.`);
  if (!givenPassword) console.log(`Password (shown once, change it after signing in): ${password}`);
  if (config.isStaffTwoFactorRequired) {
    console.log(
      'The back office opens once they set up two-factor authentication on their profile.',
    );
  }
} finally {
  await db.close();
}
