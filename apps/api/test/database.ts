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

/** A new, empty database on the test server; returns its URL and how to drop it. */
export async function createServerDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `coffer_test_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function onServer(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
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
  const serverDatabase = await createServerDatabase();
  const db = openPostgres(serverDatabase.url, options.poolSize ?? 20);
  await migrate(db);
  return {
    ...db,
    async close() {
      await db.close();
      await serverDatabase.drop();
    },
  };
}
