// Vitest's globalSetup for the pglite and postgres projects: runs every migration once per
// run, so that each test file's fresh database is a copy of the result rather than a new
// database migrated again. Making an empty PGlite database (initdb in WebAssembly) takes
// 3–4 s of CPU on a 2-core machine; loading a dumped, migrated one takes about 1 s. On
// PostgreSQL, CREATE DATABASE … TEMPLATE copies the migrated schema in one statement.
// Files that test the migrations themselves start from createServerDatabase() (empty) or
// their own PGlite directory, and still run them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { createServerDatabase } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite database as a `dumpDataDir` tarball (pglite project). */
    pgliteTemplatePath: string;
    /** A migrated database on the test server to copy (postgres project). */
    postgresTemplateName: string;
  }
}

async function dumpMigratedPglite(project: TestProject): Promise<() => Promise<void>> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'coffer-test-template-'));
  const db = await openPglite();
  try {
    await migrate(db);
    const dumpPath = path.join(directory, 'migrated.tar');
    await writeFile(dumpPath, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()));
    project.provide('pgliteTemplatePath', dumpPath);
  } finally {
    await db.close();
  }
  return () => rm(directory, { recursive: true, force: true });
}

async function migratePostgresTemplate(project: TestProject): Promise<() => Promise<void>> {
  const template = await createServerDatabase();
  // A template may have no connection open while it is copied: this pool ends first.
  const db = openPostgres(template.url, 1);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('postgresTemplateName', template.name);
  return template.drop;
}

export default function setup(project: TestProject): Promise<() => Promise<void>> {
  return project.config.env.COFFER_TEST_DB === 'postgres'
    ? migratePostgresTemplate(project)
    : dumpMigratedPglite(project);
}
