import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../src/db/client.ts';

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
 * A new database on the test server, empty or a copy of `template`; returns its name, its
 * URL and how to drop it.
 */
export async function createServerDatabase(
  template?: string,
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `coffer_test_${randomBytes(6).toString('hex')}`;
  await onServer(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    name,
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
 * the test PostgreSQL server that is dropped again on close. Both are copies of the
 * database the project's globalSetup migrated once (test/template-database.ts).
 */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<Database> {
  if (testDatabaseKind() === 'pglite') {
    const dump = await readFile(inject('pgliteTemplatePath'));
    return openPglite(undefined, { loadDataDir: new Blob([dump]) });
  }
  const serverDatabase = await createServerDatabase(inject('postgresTemplateName'));
  const db = openPostgres(serverDatabase.url, options.poolSize ?? 20);
  return {
    ...db,
    async close() {
      await db.close();
      await serverDatabase.drop();
    },
  };
}
