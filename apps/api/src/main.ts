import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { describeTightenedModes, secureDataDirectory } from './db/data-directory.ts';
import { migrate } from './db/migrate.ts';
import { isDatabaseUnavailable } from './db/sql-errors.ts';
import { describeDemoUsers, seedSandbox } from './features/sandbox/seed.ts';
import { refuseMissingKeys } from './key-rotation.ts';
import { serializeErrorForLog } from './platform/error-logging.ts';
import { startMetricsServer } from './platform/metrics.ts';

/**
 * A PostgreSQL that cannot be reached at start-up, said as a configuration error: a wrong
 * host or port, or, behind HAProxy, no primary (Patroni elects none while etcd is out of
 * reach). Other errors are left as they are.
 */
function unreachableDatabaseError(databaseUrl: string | undefined, error: unknown) {
  if (!databaseUrl || !(error instanceof Error)) return null;
  const code = (error as { code?: unknown }).code;
  if (!isDatabaseUnavailable(error) && code !== 'ENOTFOUND') return null;
  return new ConfigError(
    `Invalid configuration:\n  DATABASE_URL: no PostgreSQL primary answers at ${new URL(databaseUrl).host} (${typeof code === 'string' ? code : error.message}); check the host and port, and, with Patroni, that etcd is reachable and a primary is up (docs/OPERATIONS.md)`,
  );
}

async function main(): Promise<void> {
  const config = loadConfig();
  const tightenedModes = await secureDataDirectory(config.dataDir).catch((error: unknown) => {
    throw new ConfigError(
      `COFFER_DATA_DIR: ${config.dataDir} must be readable by this account only, and its permissions could not be tightened (${error instanceof Error ? error.message : String(error)}); give it to the account Coffer runs as, mode 0700`,
    );
  });
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    dataDir: config.dataDir,
  });
  await migrate(db).catch((error: unknown) => {
    throw unreachableDatabaseError(config.databaseUrl, error) ?? error;
  });
  await refuseMissingKeys(db, config.secretKeys);
  const app = await buildApp({ config, db });
  const tightenedWarning = describeTightenedModes(config.dataDir, tightenedModes);
  if (tightenedWarning) app.log.warn(tightenedWarning);
  if (config.isMailOutboxOnly) {
    app.log.warn(
      'COFFER_MAIL=outbox-only: no email leaves this server; nobody receives verification or withdrawal codes until SMTP_URL is set',
    );
  }
  if (!config.relyingParty) {
    app.log.warn(
      `COFFER_PUBLIC_URL ${config.publicUrl} is an IP address: passkeys are off until it names the site by its domain`,
    );
  }
  // One runner per process; the jobs table makes sure each run happens on one of them.
  const stopJobs = app.jobs.start(config.jobTickMs);
  app.addHook('onClose', async () => {
    await stopJobs();
    await db.close();
    // PGlite rewrites some files (pg_internal.init) with loose modes while it runs; the
    // directories keep others out meanwhile, and the tree at rest is owner-only again.
    if (!config.databaseUrl) await secureDataDirectory(config.dataDir);
  });

  let isShuttingDown = false;
  const shutDown = (signal: NodeJS.Signals) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // A request that hangs must not keep the process alive forever.
    setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutDown);
  process.on('SIGTERM', shutDown);

  if (config.isSandbox) {
    const demoUsers = await seedSandbox({ db, ledger: app.ledger, config, terms: app.terms });
    console.log(describeDemoUsers(demoUsers));
  }
  // Before the API's port: an instance whose metrics cannot be served does not take traffic.
  if (config.metrics) {
    const metricsServer = await startMetricsServer(app, config.metrics);
    app.addHook('onClose', () => metricsServer.close());
    app.log.info(
      `Metrics for Prometheus at http://${config.metrics.host}:${metricsServer.port}/metrics`,
    );
  }
  await app.listen({ port: config.port, host: config.host });
  const database = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
  const mode = config.isSandbox ? 'sandbox' : 'production';
  app.log.info(`Coffer is running at http://localhost:${config.port} (${mode}, ${database})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else if (error instanceof Error) {
    // As the log writes errors: a failed statement's values (PostgreSQL's DETAIL) left out.
    console.error(serializeErrorForLog(error));
  } else {
    console.error(error);
  }
  process.exit(1);
});
