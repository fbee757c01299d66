import { availableParallelism } from 'node:os';
import path from 'node:path';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vitest/config';
import { contractsCatalogs } from './apps/web/contracts-catalogs.ts';
import { pageWords } from './apps/web/page-words.ts';

// The API's integration tests run twice: once on PGlite and once on a real PostgreSQL
// server started by scripts/test.mjs. Files named *.pg.test.ts need a real server
// (true concurrency) and run only there.
const apiTests = 'apps/api/{src,test}/**/*.test.ts';
const unitTests = '**/*.unit.test.ts';
// Migrates once per run; each file's database is a copy (see the file for why).
const templateDatabase = './apps/api/test/template-database.ts';
// The API's files share a worker's modules (isolate: false): each builds its own app and
// database and none stubs a module, the environment or a global, so nothing leaks between
// them, and importing the app once per worker instead of once per file cut the worker
// time of these projects by about a third (3 of 78 files: 89 s of CPU to 59 s).

// Lingui's own macro transform is native code for Node 22.19 and later; on the Node 20 this
// project also runs on, Babel compiles the macros (docs/decisions/054): its advice to
// switch is noise here.
process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';

export default defineConfig({
  test: {
    // Vitest's default (cores − 1) runs one file at a time on a 2-core CI machine, leaving a
    // core idle while a file imports and opens its database. e2e stays one file at a time
    // (fileParallelism below), after the others.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        // The web app's modules as its build makes them (apps/web/vite.config.ts): Lingui's
        // macros compiled, PO catalogs imported as messages.
        plugins: [
          babel({ presets: [linguiTransformerBabelPreset()] }),
          lingui(),
          pageWords(path.join(import.meta.dirname, 'apps/web/src')),
          contractsCatalogs(),
        ],
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', `apps/*/src/${unitTests}`, `bench/${unitTests}`],
        },
      },
      {
        test: {
          name: 'pglite',
          include: [apiTests],
          exclude: [unitTests, '**/*.pg.test.ts', '**/node_modules/**'],
          env: { COFFER_TEST_DB: 'pglite' },
          globalSetup: [templateDatabase],
          isolate: false,
          testTimeout: 30_000,
          // Opening and migrating a PGlite database is CPU-bound WebAssembly: on a busy
          // 2-core machine it alone has taken over 25 s.
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'postgres',
          // The short chaos run (npm run chaos) starts a PostgreSQL server of its own.
          include: [apiTests, 'bench/chaos/*.pg.test.ts'],
          exclude: [unitTests, '**/node_modules/**'],
          env: { COFFER_TEST_DB: 'postgres' },
          globalSetup: [templateDatabase],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['./e2e/support/template-data-dir.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // After the API's files (a group of its own), two files at a time: one file's
          // Chromium, API child and worker use under one core on average — back-office used
          // 79 s of CPU (user + sys, /usr/bin/time) and took 89 s of wall time alone on a
          // quiet 2-core CI machine; the rest is waiting on the browser.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
        },
      },
    ],
  },
});
