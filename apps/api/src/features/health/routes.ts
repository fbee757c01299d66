import { healthResponseSchema, probeResponseSchema } from '@coffer/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pendingMigrationsCheck } from '../../db/migrate.ts';
import { AppError } from '../../platform/app-error.ts';
import { withinMs } from '../../platform/deadline.ts';

/**
 * A load balancer polls readiness every few seconds: a database that does not answer
 * within this makes the instance not ready rather than holding the poll open.
 */
const readinessTimeoutMs = 2_000;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { response: { 200: healthResponseSchema } } },
    async () => ({ status: 'ok' as const, database: app.db.kind, isSandbox: app.config.isSandbox }),
  );
};

/**
 * The load balancer's probes (docs/OPERATIONS.md, "Health checks"), outside the versioned
 * API. Neither reads a session nor counts against any rate limit, so polling costs one
 * small query at most and is never refused for its pace.
 */
export const probeRoutes: FastifyPluginAsyncZod = async (app) => {
  const pendingMigrations = await pendingMigrationsCheck();
  const probe = { access: 'public', ignoresSession: true } as const;

  // Answers while the process runs and its event loop turns: a restart is the cure otherwise.
  app.get(
    '/health/live',
    { config: probe, schema: { response: { 200: probeResponseSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  // Ready to take traffic: the database answers, accepts writes (not a standby, not
  // read-only, as during a failover) and has every migration this build expects.
  app.get(
    '/health/ready',
    { config: probe, schema: { response: { 200: probeResponseSchema } } },
    async (request) => {
      const notReady = await withinMs(readinessProblem(), readinessTimeoutMs, 'readiness').catch(
        (error: unknown) => {
          request.log.warn({ err: error }, 'readiness: the database did not answer');
          return 'the database does not answer';
        },
      );
      if (notReady) {
        throw new AppError('unavailable', { message: `Not ready: ${notReady}.` });
      }
      return { status: 'ok' as const };
    },
  );

  async function readinessProblem(): Promise<string | null> {
    const writable = await app.db.query<{ is_read_only: boolean }>(
      `SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on' AS is_read_only`,
    );
    if (writable.rows[0]?.is_read_only !== false) return 'the database does not accept writes';
    const pending = await pendingMigrations(app.db);
    if (pending.length > 0) return `${pending.length} database migrations are not applied`;
    return null;
  }
};
