import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../../test/app.ts';
import { createServerDatabase, testDatabaseKind } from '../../../test/database.ts';
import { type Database, openPglite, openPostgres } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';

let app: FastifyInstance;
let db: Database;
useTestApp((opened) => {
  ({ app, db } = opened);
});

const ready = () => app.inject({ method: 'GET', url: '/api/health/ready' });

describe('liveness and readiness', () => {
  it('answers liveness and readiness with 200 on a writable, migrated database', async () => {
    const live = await app.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const answer = await ready();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ status: 'ok' });
  });

  it('keeps the older /api/v1/health working', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', database: testDatabaseKind() });
  });

  it('is not ready, in the one error shape, while a migration is not applied', async () => {
    const last = await db.query<{ tag: string }>(
      'SELECT tag FROM schema_migrations ORDER BY tag DESC LIMIT 1',
    );
    const tag = last.rows[0]?.tag;
    await db.query('DELETE FROM schema_migrations WHERE tag = $1', [tag]);
    try {
      const answer = await ready();
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        error: {
          code: 'unavailable',
          message: 'Not ready: 1 database migrations are not applied.',
        },
      });
    } finally {
      await db.query('INSERT INTO schema_migrations (tag) VALUES ($1)', [tag]);
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('answers every poll of a load balancer, far past any per-address limit', async () => {
    const polls = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.inject({ method: 'GET', url: '/api/health/ready', remoteAddress: '10.9.9.9' }),
      ),
    );
    expect(polls.map((poll) => poll.statusCode)).toEqual(polls.map(() => 200));
  });
});

describe('readiness of a database that fails', () => {
  it('is not ready while the database is read-only or gone, and ready when it is back', async () => {
    const failing = await databaseThatFails();
    const instance = await buildTestApp(failing.db);
    try {
      // What the probe says now; a pool may first meet a connection the server just ended.
      const readiness = async () => {
        const answer = await instance.inject({ method: 'GET', url: '/api/health/ready' });
        return answer.statusCode === 200 ? 'ready' : answer.json().error.message;
      };
      expect(await readiness()).toBe('ready');
      await failing.setReadOnly(true);
      await expect.poll(readiness).toBe('Not ready: the database does not accept writes.');
      await failing.setReadOnly(false);
      await expect.poll(readiness).toBe('ready');
      await failing.goAway();
      const answer = await instance.inject({ method: 'GET', url: '/api/health/ready' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        error: { code: 'unavailable', message: 'Not ready: the database does not answer.' },
      });
      const live = await instance.inject({ method: 'GET', url: '/api/health/live' });
      expect(live.statusCode).toBe(200);
      if (failing.comeBack) {
        await failing.comeBack();
        await expect.poll(readiness).toBe('ready');
      }
    } finally {
      await instance.close().catch(() => {});
      await failing.cleanUp();
    }
  });
});

type FailingDatabase = {
  db: Database;
  /** Every new transaction read-only, as on a standby or a primary being demoted. */
  setReadOnly: (isReadOnly: boolean) => Promise<void>;
  goAway: () => Promise<void>;
  /** PostgreSQL takes connections again; a closed PGlite does not come back. */
  comeBack: (() => Promise<void>) | null;
  cleanUp: () => Promise<void>;
};

/**
 * A database of its own that fails when told: PGlite's one session set read-only or the
 * database closed; a PostgreSQL database set read-only or refusing connections, its open
 * ones ended by the server so that the pool opens new ones under the new rule.
 */
async function databaseThatFails(): Promise<FailingDatabase> {
  if (testDatabaseKind() === 'pglite') {
    const db = await openPglite();
    await migrate(db);
    return {
      db,
      setReadOnly: async (isReadOnly) => {
        await db.query(`SET default_transaction_read_only = ${isReadOnly ? 'on' : 'off'}`);
      },
      goAway: () => db.close(),
      comeBack: null,
      cleanUp: async () => {},
    };
  }
  const serverDatabase = await createServerDatabase();
  const name = new URL(serverDatabase.url).pathname.slice(1);
  const db = openPostgres(serverDatabase.url, 2);
  await migrate(db);
  const endConnections = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`;
  const onServer = async (statements: string[]) => {
    const admin = new pg.Client({ connectionString: process.env.COFFER_TEST_POSTGRES_URL });
    await admin.connect();
    try {
      for (const statement of statements) await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  return {
    db,
    setReadOnly: (isReadOnly) =>
      onServer([
        isReadOnly
          ? `ALTER DATABASE ${name} SET default_transaction_read_only = on`
          : `ALTER DATABASE ${name} RESET default_transaction_read_only`,
        endConnections,
      ]),
    goAway: () => onServer([`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`, endConnections]),
    comeBack: () => onServer([`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`]),
    cleanUp: async () => {
      await db.close();
      await serverDatabase.drop();
    },
  };
}
