import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no'], { message: 'must be 1 or 0' })
  .transform((value) => value === '1' || value === 'true' || value === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  COFFER_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  COFFER_DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  COFFER_DATA_DIR: z.string().min(1).default(path.join(repoRoot, 'data')),
  COFFER_WEB_DIST: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  COFFER_SANDBOX: booleanFlag.optional(),
  COFFER_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  COFFER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
});

export type Config = {
  environment: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Unset: the embedded PGlite database under `dataDir`. */
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  webDistDir: string;
  isSandbox: boolean;
  logLevel: z.infer<typeof envSchema>['COFFER_LOG_LEVEL'];
  shutdownTimeoutMs: number;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and checks the environment once; a bad value names its variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  // A fresh checkout runs as a sandbox; production must never carry demo data.
  const isSandbox = values.COFFER_SANDBOX ?? !isProduction;
  if (isProduction && isSandbox) {
    throw new ConfigError('Invalid configuration:\n  COFFER_SANDBOX: must be 0 in production');
  }
  return {
    environment: values.NODE_ENV,
    port: values.PORT,
    host: values.COFFER_HOST,
    databaseUrl: values.DATABASE_URL,
    databasePoolSize: values.COFFER_DB_POOL_SIZE,
    dataDir: path.resolve(values.COFFER_DATA_DIR),
    webDistDir: path.resolve(values.COFFER_WEB_DIST),
    isSandbox,
    logLevel: values.COFFER_LOG_LEVEL,
    shutdownTimeoutMs: values.COFFER_SHUTDOWN_TIMEOUT_MS,
  };
}
