import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isLanguage,
  type Language,
  languages,
  sourceLanguage,
} from '../../packages/contracts/src/languages.ts';
import { integerFromEnv } from '../shared/env.ts';

export const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(benchDir, '..');

/**
 * `load`: pgbench and Quick Pay over HTTP; `web`: the pages' JavaScript, Lighthouse and the
 * dashboard's Quick Pay in a throttled browser.
 */
const partNames = ['load', 'web'] as const;
export type PartName = (typeof partNames)[number];

/**
 * `single`: the one PostgreSQL server of scripts/with-postgres.mjs; `ha`: the HA set-up of
 * `npm run ha` (two nodes under Patroni, synchronous replication, HAProxy in front).
 */
const databaseKinds = ['single', 'ha'] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

export type ApiBenchConfig = {
  measuredSeconds: number;
  warmupSeconds: number;
  /** Quick Pay run before the phases so the tables hold history (0: none). */
  historySeconds: number;
  /** Each count runs once with pgbench clients and once with HTTP connections. */
  connectionCounts: number[];
  pgbenchThreads: number;
  customerCount: number;
  bystanderCount: number;
  /** The API's COFFER_DB_POOL_SIZE; its default unless told otherwise. */
  apiPoolSize: number;
  lighthouseRuns: number;
  /** Whether Lighthouse also runs at the slower phone's CPU slowdown (8×), not only at 4×. */
  lighthouseSlowerCpu: boolean;
  /** Quick Pay runs in Chromium with 4× CPU throttling, each paying once (0: none). */
  interactionRuns: number;
  /** The web part's pages by name (web-part.ts), or null: all of them. */
  webPages: string[] | null;
  /** The language the web part's pages are opened in (the `coffer-language` cookie). */
  webLanguage: Language;
  waitSampleIntervalMs: number;
  parts: PartName[];
  database: DatabaseKind;
  resultsFile: string;
  /** Where the API process writes a V8 CPU profile (--cpu-prof) when it exits; null: none. */
  apiCpuProfileDir: string | null;
  /** Where each Lighthouse run's whole JSON report is kept; null: none. */
  lighthouseReportsDir: string | null;
};

function listFromEnv(name: string, fallback: string): string[] {
  return (process.env[name] || fallback)
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function connectionCountsFromEnv(): number[] {
  return listFromEnv('BENCH_CONNECTIONS', '8,32').map((text) => {
    const count = Number(text);
    if (!Number.isInteger(count) || count < 1 || count > 256) {
      throw new Error(`BENCH_CONNECTIONS: ${text} is not a count from 1 to 256`);
    }
    return count;
  });
}

function partsFromEnv(): PartName[] {
  const wanted = listFromEnv('BENCH_PARTS', partNames.join(','));
  const unknown = wanted.filter((name) => !(partNames as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`BENCH_PARTS: unknown ${unknown.join(', ')}; known: ${partNames.join(', ')}`);
  }
  return partNames.filter((name) => wanted.includes(name));
}

function databaseKindFromEnv(): DatabaseKind {
  const wanted = process.env.BENCH_DATABASE || 'single';
  const kind = databaseKinds.find((known) => known === wanted);
  if (!kind) {
    throw new Error(`BENCH_DATABASE: unknown ${wanted}; known: ${databaseKinds.join(', ')}`);
  }
  return kind;
}

function webLanguageFromEnv(): Language {
  const wanted = process.env.BENCH_WEB_LANGUAGE || sourceLanguage;
  if (!isLanguage(wanted)) {
    throw new Error(`BENCH_WEB_LANGUAGE: unknown ${wanted}; known: ${languages.join(', ')}`);
  }
  return wanted;
}

export function readConfig(): ApiBenchConfig {
  return {
    measuredSeconds: integerFromEnv('BENCH_SECONDS', 20, { min: 1, max: 3600 }),
    warmupSeconds: integerFromEnv('BENCH_WARMUP_SECONDS', 3, { min: 0, max: 600 }),
    historySeconds: integerFromEnv('BENCH_HISTORY_SECONDS', 10, { min: 0, max: 600 }),
    connectionCounts: connectionCountsFromEnv(),
    pgbenchThreads: integerFromEnv('BENCH_PGBENCH_THREADS', 2, { min: 1, max: 64 }),
    customerCount: integerFromEnv('BENCH_CUSTOMERS', 64, { min: 2, max: 250 }),
    bystanderCount: integerFromEnv('BENCH_BYSTANDERS', 10_000, { min: 0, max: 1_000_000 }),
    apiPoolSize: integerFromEnv('BENCH_API_POOL_SIZE', 10, { min: 1, max: 200 }),
    lighthouseRuns: integerFromEnv('BENCH_LIGHTHOUSE_RUNS', 3, { min: 1, max: 15 }),
    lighthouseSlowerCpu: integerFromEnv('BENCH_LIGHTHOUSE_SLOWER_CPU', 1, { min: 0, max: 1 }) === 1,
    interactionRuns: integerFromEnv('BENCH_INTERACTION_RUNS', 3, { min: 0, max: 15 }),
    webPages: process.env.BENCH_WEB_PAGES ? listFromEnv('BENCH_WEB_PAGES', '') : null,
    webLanguage: webLanguageFromEnv(),
    waitSampleIntervalMs: integerFromEnv('BENCH_WAIT_SAMPLE_MS', 100, { min: 0, max: 10_000 }),
    parts: partsFromEnv(),
    database: databaseKindFromEnv(),
    resultsFile: path.resolve(
      process.env.BENCH_RESULTS_FILE ?? path.join(benchDir, 'results/api.json'),
    ),
    apiCpuProfileDir: process.env.BENCH_API_CPU_PROFILE_DIR
      ? path.resolve(process.env.BENCH_API_CPU_PROFILE_DIR)
      : null,
    lighthouseReportsDir: process.env.BENCH_LIGHTHOUSE_REPORTS_DIR
      ? path.resolve(process.env.BENCH_LIGHTHOUSE_REPORTS_DIR)
      : null,
  };
}
