import http from 'node:http';
import { type ErrorCode, errorCodes } from '@coffer/contracts/errors';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ConfigError } from '../config.ts';
import type { Database } from '../db/client.ts';
import { withinMs } from './deadline.ts';

/**
 * A scrape asks the database a few small questions (jobs, outbox, replication); one that
 * does not answer within this keeps those series at their last values, and the rest of
 * the scrape (requests, the event loop) still arrives.
 */
const scrapeQueryTimeoutMs = 2_000;

/** Seconds: from a cached page (5 ms) to the request timeout's neighbourhood (10 s). */
const requestDurationBucketsSeconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The label of a request no route matched: the raw URL would make a series per visitor. */
const unmatchedRoute = 'unmatched';

/** The error code of an answer's body in the one error shape, or null. */
function errorCodeIn(payload: string): ErrorCode | null {
  try {
    const code: unknown = JSON.parse(payload)?.error?.code;
    return typeof code === 'string' && Object.hasOwn(errorCodes, code) ? (code as ErrorCode) : null;
  } catch {
    return null;
  }
}

/**
 * A database read for the series a scrape fills from it: the series ask at once, and the
 * first to ask starts the read that the others wait for. When the database does not
 * answer (a failover, a restart) the read is logged and the series keep their last values.
 */
function readForScrape<T>(app: FastifyInstance, what: string, read: () => Promise<T>) {
  let inFlight: Promise<T | null> | null = null;
  const shared = () => {
    inFlight ??= withinMs(read(), scrapeQueryTimeoutMs, what)
      .catch((error: unknown) => {
        app.log.warn({ err: error }, `metrics: could not read ${what}`);
        return null;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  return <Series>(apply: (series: Series, answer: T) => void) =>
    async function collect(this: Series) {
      const answer = await shared();
      if (answer !== null) apply(this, answer);
    };
}

type ReplicationRow = { standby: string; lag_seconds: number; lag_bytes: number | null };

/** Standbys streaming from this primary; none on a standby, PGlite, or a single server. */
async function replicationLag(db: Database): Promise<ReplicationRow[]> {
  if (db.kind === 'pglite') return [];
  // replay_lag is null once a standby has replayed everything and nothing new was written.
  const found = await db.query<ReplicationRow>(
    `SELECT coalesce(application_name, client_addr::text, pid::text) AS standby,
            coalesce(extract(epoch FROM replay_lag), 0)::float8 AS lag_seconds,
            CASE WHEN pg_is_in_recovery() THEN NULL
                 ELSE pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::float8 END AS lag_bytes
       FROM pg_stat_replication`,
  );
  return found.rows;
}

/**
 * One instance's metrics, in a registry of its own (several apps share a test process;
 * prom-client's global registry would have them collide). Requests, money operations,
 * refusals and job failures are counted as they happen; connections, open streams, the
 * jobs' lag, the outbox, the books' last close and replication are read when Prometheus
 * scrapes.
 */
export function createMetrics(app: FastifyInstance) {
  const registry = new Registry();
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'coffer_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer sent, by matched route pattern and status (event streams left out).',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: requestDurationBucketsSeconds,
    registers,
  });
  const moneyOperations = new Counter({
    name: 'coffer_money_operations_total',
    help: 'Answers of the money routes (those taking an Idempotency-Key), by route pattern (kind) and outcome: done, refused, replayed or failed.',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'coffer_refusals_total',
    help: 'Answers in the one error shape, by error code.',
    labelNames: ['code'] as const,
    registers,
  });
  // Scheduled jobs are labelled job_name: Prometheus gives every series the scrape job's
  // name as `job`, and would rename ours out of the way.
  const jobFailures = new Counter({
    name: 'coffer_scheduled_job_failures_total',
    help: 'Runs of a scheduled job that failed in this instance.',
    labelNames: ['job_name'] as const,
    registers,
  });

  new Gauge({
    name: 'coffer_database_connections_in_use',
    help: 'Database connections working for this instance now (PGlite: 1 while a statement runs).',
    registers,
    collect() {
      this.set(app.db.connectionUse().inUse);
    },
  });
  new Gauge({
    name: 'coffer_database_connections_waiting',
    help: 'Callers of this instance waiting for a database connection.',
    registers,
    collect() {
      this.set(app.db.connectionUse().waiting);
    },
  });
  new Gauge({
    name: 'coffer_live_event_streams_open',
    help: 'Live-event streams (Server-Sent Events) this instance holds open.',
    registers,
    collect() {
      this.set(app.openStreams.size);
    },
  });

  const fromJobs = readForScrape(app, 'the scheduled jobs', async () => {
    const jobs = await app.db.query<{ name: string; lag_seconds: number; has_failed: boolean }>(
      `SELECT name, greatest(extract(epoch FROM now() - next_run_at), 0)::float8 AS lag_seconds,
              last_error IS NOT NULL AS has_failed
         FROM scheduled_jobs`,
    );
    return jobs.rows;
  });
  new Gauge({
    name: 'coffer_scheduled_job_lag_seconds',
    help: 'How long a scheduled job has been due without starting (0 when not due), from the shared jobs table.',
    labelNames: ['job_name'] as const,
    registers,
    collect: fromJobs((series: Gauge<'job_name'>, jobs) => {
      for (const job of jobs) series.set({ job_name: job.name }, job.lag_seconds);
    }),
  });
  new Gauge({
    name: 'coffer_scheduled_job_last_run_failed',
    help: "1 when a scheduled job's last run failed on any instance (ledger-invariants: the ledger's invariants are broken), else 0.",
    labelNames: ['job_name'] as const,
    registers,
    collect: fromJobs((series: Gauge<'job_name'>, jobs) => {
      for (const job of jobs) series.set({ job_name: job.name }, job.has_failed ? 1 : 0);
    }),
  });

  const fromOutbox = readForScrape(app, 'the email outbox', async () => {
    const outbox = await app.db.query<{ unsent_count: number; oldest_seconds: number }>(
      `SELECT count(*)::int4 AS unsent_count,
              coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS oldest_seconds
         FROM outbox_emails WHERE sent_at IS NULL`,
    );
    return outbox.rows[0] ?? { unsent_count: 0, oldest_seconds: 0 };
  });
  new Gauge({
    name: 'coffer_email_outbox_backlog',
    help: 'Emails in the outbox not yet sent (SMTP down or slow, or given up after their attempts).',
    registers,
    collect: fromOutbox((series: Gauge, outbox) => {
      series.set(outbox.unsent_count);
    }),
  });
  new Gauge({
    name: 'coffer_email_outbox_oldest_seconds',
    help: 'Age of the oldest email not yet sent (0 when none waits).',
    registers,
    collect: fromOutbox((series: Gauge, outbox) => {
      series.set(outbox.oldest_seconds);
    }),
  });

  const fromBooks = readForScrape(app, 'the books', async () => {
    const last = await app.db.query<{ problem_count: number }>(
      'SELECT jsonb_array_length(problems) AS problem_count FROM book_closes ORDER BY day DESC LIMIT 1',
    );
    return last.rows[0]?.problem_count ?? 0;
  });
  new Gauge({
    name: 'coffer_books_last_close_problems',
    help: "Problems the daily close recorded on the last closed day: a currency that does not balance, or the ledger's invariant check failing (0 when it balanced, or before any close). A day's imbalance carries into every later closing.",
    registers,
    collect: fromBooks((series: Gauge, problemCount) => {
      series.set(problemCount);
    }),
  });

  // A standby that left is dropped (reset), not kept at its last lag.
  const fromReplication = readForScrape(app, 'replication', () => replicationLag(app.db));
  new Gauge({
    name: 'coffer_database_replication_lag_seconds',
    help: "Time a standby's replay is behind, per standby (PostgreSQL primaries with standbys; needs pg_monitor).",
    labelNames: ['standby'] as const,
    registers,
    collect: fromReplication((series: Gauge<'standby'>, standbys) => {
      series.reset();
      for (const { standby, lag_seconds } of standbys) series.set({ standby }, lag_seconds);
    }),
  });
  new Gauge({
    name: 'coffer_database_replication_lag_bytes',
    help: 'WAL a standby has still to replay, per standby (PostgreSQL primaries with standbys; needs pg_monitor).',
    labelNames: ['standby'] as const,
    registers,
    collect: fromReplication((series: Gauge<'standby'>, standbys) => {
      series.reset();
      for (const { standby, lag_bytes } of standbys) {
        if (lag_bytes !== null) series.set({ standby }, lag_bytes);
      }
    }),
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string') {
      const code = errorCodeIn(payload);
      if (code) refusals.inc({ code });
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const config = request.is404 ? undefined : request.routeOptions.config;
    if (config?.isEventStream) return;
    const route = request.is404 ? unmatchedRoute : (request.routeOptions.url ?? unmatchedRoute);
    const status = reply.statusCode;
    requestDuration.observe(
      { method: request.method, route, status: String(status) },
      reply.elapsedTime / 1000,
    );
    if (config?.isIdempotent) {
      const outcome =
        reply.getHeader('idempotent-replayed') === 'true'
          ? 'replayed'
          : status >= 500
            ? 'failed'
            : status >= 400
              ? 'refused'
              : 'done';
      moneyOperations.inc({ kind: route, outcome });
    }
  });

  return {
    registry,
    /** For the jobs runner: counts a failed run. */
    countJobFailure: (jobName: string) => jobFailures.inc({ job_name: jobName }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Serves `GET /metrics` on a port of its own (COFFER_METRICS_PORT), never on the API's:
 * it must not be reachable through the load balancer. Adds Node's own series (event-loop
 * delay, memory, CPU, garbage collection). A port in use or an address this machine does
 * not have stops start-up naming the variable.
 */
export async function startMetricsServer(
  app: FastifyInstance,
  where: { port: number; host: string },
): Promise<{ port: number; close: () => Promise<void> }> {
  const { registry } = app.metrics;
  const server = http.createServer((request, response) => {
    const path = request.url?.split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics: could not collect');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Could not collect\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const variable =
        error.code === 'EADDRNOTAVAIL' ? 'COFFER_METRICS_HOST' : 'COFFER_METRICS_PORT';
      reject(
        new ConfigError(
          `Invalid configuration:\n  ${variable}: cannot serve metrics on ${where.host}:${where.port} (${error.code ?? error.message}${error.code === 'EADDRINUSE' ? ': the port is in use' : ''})`,
        ),
      );
    });
    server.listen(where.port, where.host, resolve);
  });
  collectDefaultMetrics({ register: registry });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : where.port,
    close: () =>
      new Promise<void>((resolve) => {
        // Prometheus keeps its connection open between scrapes.
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
