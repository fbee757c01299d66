// A populated database backed up and restored into an empty one holds the same money, the
// same people and the same documents, and its ledger still checks out. On PGlite (a data
// directory on disk) and on PostgreSQL (a database on the test server, pg_dump/pg_restore).
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { createCustomer } from '../../test/customers.ts';
import { createServerDatabase, testDatabaseKind } from '../../test/database.ts';
import { quickPay } from '../../test/transfers.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { kycDocumentsDirectory } from '../features/kyc/storage.ts';
import { createLedger } from '../ledger/ledger.ts';
import { backUp, type DataLocation, pgToolConnection, restore } from './backups.ts';

const cleanUps: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanUp of cleanUps.reverse()) await cleanUp();
});

async function temporaryDirectory(): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'coffer-backup-test-'));
  cleanUps.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

/** An empty place for Coffer's data: a data directory, and a database on PostgreSQL runs. */
async function emptyLocation(): Promise<DataLocation> {
  const dataDir = await temporaryDirectory();
  if (testDatabaseKind() === 'pglite') return { databaseUrl: undefined, dataDir };
  const database = await createServerDatabase();
  cleanUps.push(database.drop);
  return { databaseUrl: database.url, dataDir };
}

async function open(location: DataLocation): Promise<Database> {
  return openDatabase({ ...location, poolSize: 2 });
}

/** What must survive: every balance, every person, every journal entry. */
async function snapshot(db: Database) {
  const balances = await db.query(
    `SELECT account_id, sum(balance_minor)::text AS balance, sum(held_minor)::text AS held
       FROM account_balances GROUP BY account_id ORDER BY account_id`,
  );
  const users = await db.query(
    'SELECT id, email, username, role, level, password_hash FROM users ORDER BY id',
  );
  const entries = await db.query('SELECT count(*)::int AS count FROM journal_entries');
  return { balances: balances.rows, users: users.rows, entries: entries.rows };
}

describe('backup and restore', { timeout: 120_000 }, () => {
  it('restores a populated database into an empty one with the same balances, users and invariants', async () => {
    const source = await emptyLocation();
    const sourceDb = await open(source);
    await migrate(sourceDb);
    const app = await buildTestApp(sourceDb);
    await app.ready();
    const payer = await createCustomer(app, { balance: '250.00' });
    const payee = await createCustomer(app);
    expect(
      (await quickPay(payer.client, { recipient: payee.wallet.number, amount: '12.34' }))
        .statusCode,
    ).toBe(201);
    const documents = kycDocumentsDirectory(source.dataDir);
    await mkdir(documents, { recursive: true });
    await writeFile(path.join(documents, 'document-1'), 'encrypted bytes');
    const before = await snapshot(sourceDb);
    expect(before.users.length).toBe(2);
    await app.close();
    // PGlite is backed up stopped, as docs/OPERATIONS.md says; PostgreSQL may keep running.
    await sourceDb.close();

    const backupDirectory = path.join(await temporaryDirectory(), 'backup');
    await backUp(source, backupDirectory);
    const target = await emptyLocation();
    await restore(target, backupDirectory);

    const restoredDb = await open(target);
    try {
      await migrate(restoredDb);
      expect(await snapshot(restoredDb)).toEqual(before);
      await createLedger(restoredDb).assertInvariants();
      const restoredDocument = path.join(kycDocumentsDirectory(target.dataDir), 'document-1');
      expect(await readFile(restoredDocument, 'utf8')).toBe('encrypted bytes');
      // A restore never overwrites: the same backup into the now-populated place is refused.
      await expect(restore(target, backupDirectory)).rejects.toThrow(/not empty|already has/);
    } finally {
      await restoredDb.close();
    }
  });

  it('keeps a backup readable by its owner only: it holds every password hash and secret', async () => {
    const source = await emptyLocation();
    const sourceDb = await open(source);
    await migrate(sourceDb);
    await sourceDb.close();
    const parent = await temporaryDirectory();
    const backupDirectory = path.join(parent, 'backup');
    // An operator's empty directory made with the usual umask (0755) is tightened too.
    await mkdir(backupDirectory, { mode: 0o755 });
    await backUp(source, backupDirectory);
    expect((await stat(backupDirectory)).mode & 0o777).toBe(0o700);
    for (const name of await readdir(backupDirectory)) {
      expect((await stat(path.join(backupDirectory, name))).mode & 0o077, name).toBe(0);
    }
  });

  it('restores into a data directory only its owner can open: PGlite writes its files 0666', async () => {
    const source = await emptyLocation();
    const sourceDb = await open(source);
    await migrate(sourceDb);
    await sourceDb.close();
    const documents = kycDocumentsDirectory(source.dataDir);
    await mkdir(documents, { recursive: true });
    await writeFile(path.join(documents, 'document-1'), 'encrypted bytes');
    const backupDirectory = path.join(await temporaryDirectory(), 'backup');
    await backUp(source, backupDirectory);

    const target = await emptyLocation();
    // The operator's empty data directory, made with the usual umask.
    await chmod(target.dataDir, 0o755);
    await restore(target, backupDirectory);
    const openToOthers: string[] = [];
    const visit = async (entry: string) => {
      const stats = await lstat(entry);
      if ((stats.mode & 0o077) !== 0)
        openToOthers.push(`${entry}: ${(stats.mode & 0o777).toString(8)}`);
      if (stats.isDirectory()) {
        for (const name of await readdir(entry)) await visit(path.join(entry, name));
      }
    };
    await visit(target.dataDir);
    expect(openToOthers).toEqual([]);
  }, 120_000);

  it('keeps the database password off pg_dump’s command line, where any local user sees it', () => {
    const connection = pgToolConnection(
      'postgres://coffer:s3cret%21@db.example:5433/coffer?sslmode=require',
    );
    expect(connection.dbname).not.toContain('s3cret');
    expect(connection.dbname).toContain('db.example:5433/coffer');
    expect(connection.env.PGPASSWORD).toBe('s3cret!');
  });
});
