// A customer as they are after the operator published new terms: they accepted an earlier
// version at sign-up. Written into a data directory before the server opens it (PGlite has
// one opener), as the created-admin test's command does.
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { embeddedDatabaseDirectory, openPglite } from '../../apps/api/src/db/client.ts';
import { secureDataDirectory } from '../../apps/api/src/db/data-directory.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';
import { createLedger } from '../../apps/api/src/ledger/ledger.ts';
import { newId } from '../../apps/api/src/platform/ids.ts';
import { hashPassword } from '../../apps/api/src/platform/passwords.ts';
import type { TestCustomer } from './accounts.ts';

export async function addCustomerWhoAcceptedEarlierTerms(
  dataDir: string,
  customer: TestCustomer,
  earlierVersion: string,
): Promise<void> {
  const db = await openPglite(embeddedDatabaseDirectory(dataDir));
  try {
    await migrate(db);
    const userId = newId();
    const passwordHash = await hashPassword(customer.password);
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO users (id, username, email, phone, country, role, password_hash,
                            email_verified_at, terms_version, terms_accepted_at)
         VALUES ($1, $2, $3, $4, $5, 'customer', $6, now(), $7, now() - interval '90 days')`,
        [
          userId,
          customer.username,
          customer.email,
          customer.phone,
          customer.country,
          passwordHash,
          earlierVersion,
        ],
      );
      await createLedger(db).openWallet(userId, toCurrencyCode('USD'), tx);
    });
  } finally {
    await db.close();
  }
  await secureDataDirectory(dataDir);
}
