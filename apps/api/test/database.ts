import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openPglite, openPostgres } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';

export type TestDatabaseKind = 'pglite' | 'postgres';

export function testDatabaseKind(): TestDatabaseKind {
  const kind = process.env.COFFER_TEST_DB ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres') throw new Error(`COFFER_TEST_DB=${kind}?`);
  return kind;
}

function serverUrl(): string {
  const url = process.env.COFFER_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'COFFER_TEST_POSTGRES_URL is not set: run the tests with `npm test`, which starts a PostgreSQL server',
    );
  }
  return url;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new database on
 * the test PostgreSQL server that is dropped again on close.
 */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<Database> {
  if (testDatabaseKind() === 'pglite') {
    const db = await openPglite();
    await migrate(db);
    return db;
  }
  const name = `coffer_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  const db = openPostgres(url.toString(), options.poolSize ?? 20);
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      const dropper = new pg.Client({ connectionString: serverUrl() });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
