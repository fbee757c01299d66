import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';

/**
 * The real app on a test database, not listening: requests go through `app.inject`.
 * Callers may register extra routes before the first request.
 */
export async function buildTestApp(
  db: Database,
  env: Record<string, string> = {},
): Promise<FastifyInstance> {
  const config = loadConfig({
    NODE_ENV: 'test',
    COFFER_SANDBOX: '0',
    COFFER_LOG_LEVEL: process.env.COFFER_TEST_LOG_LEVEL ?? 'silent',
    COFFER_DATA_DIR: path.join(os.tmpdir(), 'coffer-test-unused'),
    ...env,
  });
  return buildApp({ config, db });
}
