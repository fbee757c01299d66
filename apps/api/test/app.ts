import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { moneyOutDayMismatches } from '../src/money-out/queries.ts';
import { openTestDatabase } from './database.ts';

/** The tests' own secret key: a server outside the sandbox refuses the published one. */
export const testSecretKey = 'coffer-test-secret-key-used-by-the-test-suite';

/**
 * The real app on a test database, not listening: requests go through `app.inject`.
 * Callers may register extra routes before the first request.
 */
export async function buildTestApp(
  db: Database,
  env: Record<string, string> = {},
  options: { logStream?: Writable } = {},
): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    COFFER_SANDBOX: '0',
    COFFER_LOG_LEVEL: process.env.COFFER_TEST_LOG_LEVEL ?? 'silent',
    COFFER_DATA_DIR: path.join(os.tmpdir(), 'coffer-test-unused'),
    // Staff made by the tests sign in with a password alone; staff-two-factor.test.ts
    // turns the requirement on.
    COFFER_STAFF_TWO_FACTOR: '0',
    // Outside a sandbox the server needs its own key and says what becomes of mail.
    COFFER_SECRET_KEY: testSecretKey,
    ...(env.SMTP_URL ? {} : { COFFER_MAIL: 'outbox-only' }),
    ...env,
  });
  return buildApp({ config, db, ...options });
}

export type OpenedTestApp = { app: FastifyInstance; db: Database };

export type TestAppOptions = {
  /** Configuration on top of buildTestApp's. */
  env?: Record<string, string>;
  /** Connections to a real PostgreSQL: concurrency tests want more than the default. */
  poolSize?: number;
  /** Runs before the app is ready: routes this file's tests need and production lacks. */
  beforeReady?: (opened: OpenedTestApp) => void;
  /**
   * Checked after every test: the ledger's invariants ('ledger'), and also that each
   * customer's money-out day totals match their movements ('money-out').
   */
  checksAfterEach?: 'ledger' | 'money-out';
};

/**
 * One fresh database and the app on it for the calling test file: opened before its first
 * test, handed to `onReady` (which keeps them and makes the file's own clients), and closed
 * after its last test, whatever happened in between.
 */
export function useTestApp(
  onReady: (opened: OpenedTestApp) => void | Promise<void>,
  options: TestAppOptions = {},
): void {
  let db: Database | undefined;
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    db = await openTestDatabase({ poolSize: options.poolSize });
    app = await buildTestApp(db, options.env);
    options.beforeReady?.({ app, db });
    await app.ready();
    await onReady({ app, db });
  });
  afterEach(async () => {
    if (!app || !db || !options.checksAfterEach) return;
    await app.ledger.assertInvariants();
    if (options.checksAfterEach === 'money-out') {
      expect(await moneyOutDayMismatches(db)).toEqual([]);
    }
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });
}
