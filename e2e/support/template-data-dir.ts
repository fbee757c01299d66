// Vitest's globalSetup for the browser tests: makes one migrated embedded database per run,
// which every test file's API server starts from as a copy. A new PGlite directory costs an
// initdb in WebAssembly (5–7 s of CPU on a 2-core machine) before the migrations; opening a
// copied one takes about 1.5 s. The server still runs its migrations (none are left to do)
// and seeds the sandbox itself, so each file starts as `npm start` would on a new machine.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { embeddedDatabaseDirectory, openPglite } from '../../apps/api/src/db/client.ts';
import { migrate } from '../../apps/api/src/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A COFFER_DATA_DIR holding a migrated, empty embedded database, to copy. */
    e2eDataDirTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coffer-e2e-template-'));
  const db = await openPglite(embeddedDatabaseDirectory(dataDir));
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('e2eDataDirTemplate', dataDir);
  return () => rm(dataDir, { recursive: true, force: true });
}
