import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { ownerOnlyDirectoryMode } from './data-directory.ts';

export type QueryOptions = {
  /**
   * Names a hot statement so PostgreSQL parses and plans it once per connection. The
   * same name must always go with the same text. PGlite has no such cache; it ignores it.
   */
  preparedName?: string;
};

/** Anything that runs SQL: the database itself or one open transaction. */
export type Queryable = {
  query<Row extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: Row[] }>;
};

export type Database = Queryable & {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onPayload` for every NOTIFY on `channel` once its transaction commits, from any
   * connection or process; resolves to a function that stops listening. A NOTIFY sent
   * while the listening connection is lost (a restart, a failover) is never heard:
   * `onResumed` is called each time listening starts again after such a gap.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onResumed: () => void,
  ): Promise<() => Promise<void>>;
  /** Connections working for the app now and callers waiting for one (the metrics). */
  connectionUse(): ConnectionUse;
  close(): Promise<void>;
};

/**
 * A pool's connections checked out (`inUse`) and the callers queued for one (`waiting`).
 * PGlite has one connection and runs one statement or transaction at a time: it is in use
 * while any runs, and the others wait for it.
 */
export type ConnectionUse = { inUse: number; waiting: number };

const int8Oid = 20;

/**
 * PGlite hangs the failed statement and its parameters on the error (`query`, `params`,
 * `queryOptions`): ID numbers, addresses, password hashes, for whoever prints or logs it.
 * They go before the error leaves the client; the SQLSTATE, message and DETAIL stay
 * (sql-errors.ts reads them), and the log leaves out DETAIL (platform/error-logging.ts).
 */
function withoutStatement(error: unknown): never {
  if (error instanceof Error) {
    for (const key of ['query', 'params', 'queryOptions']) Reflect.deleteProperty(error, key);
  }
  throw error;
}

/** A PGlite transaction whose failed statements carry no parameters either. */
function withoutStatements(tx: Transaction): Queryable {
  return {
    query: <Row extends Record<string, unknown>>(text: string, params?: unknown[]) =>
      tx.query<Row>(text, params).catch(withoutStatement),
  };
}

/** PGlite's own handle on top: the tests copy a migrated database with `dumpDataDir`. */
export type PgliteDatabase = Database & { dumpDataDir(): Promise<Blob> };

/**
 * The embedded database: PostgreSQL in WASM, kept in `dataDir` (or memory when omitted),
 * started from `loadDataDir` (a `dumpDataDir` tarball) when given instead of an empty one.
 */
export async function openPglite(
  dataDir?: string,
  options: { loadDataDir?: Blob } = {},
): Promise<PgliteDatabase> {
  // PGlite writes its files 0666 whatever the umask: its directories keep others out
  // (db/data-directory.ts; main tightens a tree it finds open).
  if (dataDir) {
    await mkdir(path.dirname(dataDir), { recursive: true, mode: ownerOnlyDirectoryMode });
    await mkdir(dataDir, { recursive: true, mode: ownerOnlyDirectoryMode });
  }
  // PGlite reads int8 as a number when it fits a double; money must always be bigint.
  const client = await PGlite.create(dataDir, {
    parsers: { [int8Oid]: (value) => BigInt(value) },
    loadDataDir: options.loadDataDir,
    // Extensions the migrations create must be loaded into the WASM build first.
    extensions: { pg_trgm },
  });
  // PGlite runs one transaction at a time: using the database object (not the
  // transaction) inside one would wait for itself forever. Fail loudly instead.
  const insideTransaction = new AsyncLocalStorage<true>();
  const refuseReentry = () => {
    if (insideTransaction.getStore()) {
      throw new Error(
        'the database was used inside its own transaction: pass the transaction instead',
      );
    }
  };
  // Statements and transactions asked for and not finished: one runs, the rest queue.
  let pendingCount = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    pendingCount += 1;
    try {
      return await work();
    } finally {
      pendingCount -= 1;
    }
  };
  return {
    kind: 'pglite',
    query: <Row extends Record<string, unknown>>(text: string, params?: unknown[]) => {
      refuseReentry();
      return counted(() => client.query<Row>(text, params).catch(withoutStatement));
    },
    transaction: (work) => {
      refuseReentry();
      return counted(() =>
        client
          .transaction((tx) => insideTransaction.run(true, () => work(withoutStatements(tx))))
          .catch(withoutStatement),
      );
    },
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return () => stop();
    },
    connectionUse: () => ({
      inUse: Math.min(pendingCount, 1),
      waiting: Math.max(pendingCount - 1, 0),
    }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

const listenRetryDelayMs = 1_000;

/**
 * How long a request waits for a connection, from the pool or a new one, before it is
 * answered 503: while a failover has no primary, nothing hangs longer than this. TCP
 * keep-alive notices a database machine that vanished without closing its connections.
 */
const connectionWaitMaxMs = 10_000;
const connectionOptions = { connectionTimeoutMillis: connectionWaitMaxMs, keepAlive: true };

/**
 * LISTEN needs one connection that stays open (a pooled one would be handed to others);
 * when it drops it is opened again, so a restarted server does not silence the listeners,
 * and `onResumed` says that what was sent in between was not heard.
 */
async function listenOnOwnConnection(
  connectionString: string,
  channel: string,
  onPayload: (payload: string) => void,
  onResumed: () => void,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let isStopped = false;
  // Until the server is back (a restart takes seconds), every retry fails: keep trying.
  const reconnectLater = () => {
    if (isStopped) return;
    setTimeout(
      () =>
        void connect().then(() => {
          if (!isStopped) onResumed();
        }, reconnectLater),
      listenRetryDelayMs,
    );
  };
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString, ...connectionOptions });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
    });
    next.on('error', () => {
      next.end().catch(() => {});
      // A connection that never got as far as LISTEN is retried by connect's caller.
      if (client !== next) return;
      client = null;
      reconnectLater();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
  };
  await connect();
  return async () => {
    isStopped = true;
    await client?.end();
  };
}

function ignoreLostConnection(): void {}

/** A real PostgreSQL server through a connection pool. */
export function openPostgres(connectionString: string, poolSize: number): Database {
  const pool = new pg.Pool({
    connectionString,
    ...connectionOptions,
    max: poolSize,
    // int8 columns carry money: read them as bigint, never as a float or a string.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === int8Oid
          ? (value: string) => BigInt(value)
          : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its server connection must not crash the process.
  pool.on('error', ignoreLostConnection);
  return {
    kind: 'postgres',
    query: (text, params, options) =>
      pool.query({ text, values: params, name: options?.preparedName }),
    async transaction(work) {
      const client = await pool.connect();
      // The pool listens for a lost connection only on idle clients: without this, a server
      // that goes away during a transaction would crash the process. The statement in
      // flight fails with the same error, and release() discards the broken client.
      client.on('error', ignoreLostConnection);
      try {
        await client.query('BEGIN');
        const result = await work({
          query: (text, params, options) =>
            client.query({ text, values: params, name: options?.preparedName }),
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.off('error', ignoreLostConnection);
        client.release();
      }
    },
    listen: (channel, onPayload, onResumed) =>
      listenOnOwnConnection(connectionString, channel, onPayload, onResumed),
    connectionUse: () => ({
      inUse: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: () => pool.end(),
  };
}

/** Where the embedded database lives inside COFFER_DATA_DIR (beside the identity documents). */
export function embeddedDatabaseDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

export async function openDatabase(options: {
  databaseUrl: string | undefined;
  poolSize: number;
  dataDir: string;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize);
  return openPglite(embeddedDatabaseDirectory(options.dataDir));
}
