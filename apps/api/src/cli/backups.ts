// Backups of everything Coffer keeps: the database (pg_dump's custom format for
// PostgreSQL, PGlite's own data-directory archive for PGlite) and the encrypted identity
// documents in COFFER_DATA_DIR. A backup is one directory; docs/OPERATIONS.md says how to
// take and restore one.
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { embeddedDatabaseDirectory } from '../db/client.ts';
import { secureDataDirectory } from '../db/data-directory.ts';
import { kycDocumentsDirectory } from '../features/kyc/storage.ts';

const run = promisify(execFile);

/** Where the data lives: the same settings the server reads (DATABASE_URL, COFFER_DATA_DIR). */
export type DataLocation = { databaseUrl: string | undefined; dataDir: string };

const manifestName = 'coffer-backup.json';
const postgresDumpName = 'database.dump';
const pgliteArchiveName = 'pglite.tar.gz';
/** The documents' folder inside a backup, named as in the data directory. */
const documentsName = 'kyc-documents';

type Manifest = { format: 1; database: 'postgres' | 'pglite'; createdAt: string };

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function isEmptyDirectory(directory: string): Promise<boolean> {
  return !(await exists(directory)) || (await readdir(directory)).length === 0;
}

/** PGlite with the extensions the migrations created, as the server opens it. */
function openRawPglite(directory: string, archive?: Blob): Promise<PGlite> {
  return PGlite.create(directory, {
    extensions: { pg_trgm },
    ...(archive ? { loadDataDir: archive } : {}),
  });
}

/** A backup holds password hashes, TOTP secrets and personal data: its owner's eyes only. */
const ownerOnlyDirectoryMode = 0o700;
const ownerOnlyFileMode = 0o600;

/**
 * How pg_dump and pg_restore are told the database: the URL without its password, which
 * goes in PGPASSWORD, since any local user can read a process's command line.
 */
export function pgToolConnection(databaseUrl: string): {
  dbname: string;
  env: NodeJS.ProcessEnv;
} {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    dbname: url.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/**
 * Writes a backup into `target` (a new or empty directory). For PGlite the server must be
 * stopped: PGlite is one process's database, and a second opener would see it mid-write.
 * PostgreSQL is dumped consistently while the server runs (pg_dump takes a snapshot).
 */
export async function backUp(location: DataLocation, target: string): Promise<Manifest> {
  if (!(await isEmptyDirectory(target))) throw new Error(`${target} is not empty`);
  await mkdir(target, { recursive: true, mode: ownerOnlyDirectoryMode });
  await chmod(target, ownerOnlyDirectoryMode);
  const manifest: Manifest = {
    format: 1,
    database: location.databaseUrl ? 'postgres' : 'pglite',
    createdAt: new Date().toISOString(),
  };
  if (location.databaseUrl) {
    const connection = pgToolConnection(location.databaseUrl);
    const dumpFile = path.join(target, postgresDumpName);
    await run(
      'pg_dump',
      ['--format=custom', '--no-owner', `--file=${dumpFile}`, `--dbname=${connection.dbname}`],
      { env: connection.env },
    );
    await chmod(dumpFile, ownerOnlyFileMode);
  } else {
    const source = embeddedDatabaseDirectory(location.dataDir);
    if (await isEmptyDirectory(source)) throw new Error(`no PGlite database in ${source}`);
    const db = await openRawPglite(source);
    try {
      const archive = await db.dumpDataDir('gzip');
      await writeFile(
        path.join(target, pgliteArchiveName),
        Buffer.from(await archive.arrayBuffer()),
        { mode: ownerOnlyFileMode },
      );
    } finally {
      await db.close();
    }
  }
  const documents = kycDocumentsDirectory(location.dataDir);
  if (await exists(documents))
    await cp(documents, path.join(target, documentsName), { recursive: true });
  await writeFile(path.join(target, manifestName), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: ownerOnlyFileMode,
  });
  return manifest;
}

async function hasCofferTables(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT to_regclass('public.accounts') IS NOT NULL AS found");
    return found.rows[0]?.found === true;
  } finally {
    await client.end();
  }
}

/**
 * Restores a backup into an empty place only: a database without Coffer's tables, or a
 * data directory without a PGlite database or documents. It never overwrites live data.
 */
export async function restore(location: DataLocation, source: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(path.join(source, manifestName), 'utf8')) as Manifest;
  const target = location.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.format !== 1 || manifest.database !== target) {
    throw new Error(`${source} is a ${manifest.database} backup; this is a ${target} set-up`);
  }
  const documents = kycDocumentsDirectory(location.dataDir);
  if (!(await isEmptyDirectory(documents))) throw new Error(`${documents} is not empty`);
  if (location.databaseUrl) {
    if (await hasCofferTables(location.databaseUrl)) {
      throw new Error('the database already has Coffer tables: restore into an empty database');
    }
    const connection = pgToolConnection(location.databaseUrl);
    await run(
      'pg_restore',
      [
        '--no-owner',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${connection.dbname}`,
        path.join(source, postgresDumpName),
      ],
      { env: connection.env },
    );
  } else {
    const directory = embeddedDatabaseDirectory(location.dataDir);
    if (!(await isEmptyDirectory(directory))) throw new Error(`${directory} is not empty`);
    await mkdir(location.dataDir, { recursive: true });
    const archive = new Blob([await readFile(path.join(source, pgliteArchiveName))]);
    const db = await openRawPglite(directory, archive);
    await db.close();
  }
  const backedUpDocuments = path.join(source, documentsName);
  if (await exists(backedUpDocuments)) await cp(backedUpDocuments, documents, { recursive: true });
  // PGlite writes the restored files 0666 whatever the umask: every customer's email and
  // password hash would be readable, and the tables writable, by any local account.
  await secureDataDirectory(location.dataDir);
  return manifest;
}
