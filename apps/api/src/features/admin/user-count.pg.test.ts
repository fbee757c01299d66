// Total Users under concurrent sign-ups on PostgreSQL: the counter the triggers keep
// (migration 0020) stays exact, and sign-ups on connections of different stripes do not
// queue behind one counter row.
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bareUser } from '../../../test/customers.ts';
import { createServerDatabase } from '../../../test/database.ts';
import { signedUpClient, staffClient } from '../../../test/http.ts';
import { type Database, openPostgres } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { newId } from '../../platform/ids.ts';
import { insertUser } from '../auth/queries.ts';
import { countUsers } from './queries.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { poolSize: 30 },
);

const countSql = 'SELECT count(*)::bigint AS count FROM users';

async function rowCount(database: Database): Promise<number> {
  return Number((await database.query(countSql)).rows[0]?.count);
}

describe('Total Users under concurrency on PostgreSQL', () => {
  it('stays exact through concurrent sign-ups, rolled-back inserts and deletes', async () => {
    const doomed = Array.from({ length: 15 }, () => bareUser());
    for (const user of doomed) await insertUser(db, user);
    const before = await countUsers(db);
    const rolledBack = Array.from({ length: 15 }, () =>
      db
        .transaction(async (tx) => {
          await insertUser(tx, bareUser());
          throw new Error('roll back');
        })
        .catch((error: unknown) => error),
    );
    await Promise.all([
      ...Array.from({ length: 30 }, () => signedUpClient(app)),
      ...rolledBack,
      ...doomed.map((user) => db.query('DELETE FROM users WHERE id = $1', [user.id])),
    ]);
    expect(await countUsers(db)).toBe(before + 30 - 15);
    expect(await countUsers(db)).toBe(await rowCount(db));
    const admin = await staffClient(app, 'admin');
    expect((await admin.client.get('/api/v1/admin/users')).json().totalUsers).toBe(
      await rowCount(db),
    );
  });
});

describe('striped counter', () => {
  let url: string;
  let drop: () => Promise<void>;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase());
    const migrated = openPostgres(url, 1);
    await migrate(migrated);
    await migrated.close();
  });

  afterAll(async () => {
    for (const client of clients) await client.end();
    await drop();
  });

  async function connected(): Promise<{ client: pg.Client; stripe: number }> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    clients.push(client);
    const pid = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    return { client, stripe: (pid.rows[0]?.pid ?? 0) % 16 };
  }

  it('lets a sign-up on another stripe commit while one is still open, and counts both', async () => {
    const first = await connected();
    let second = await connected();
    while (second.stripe === first.stripe) second = await connected();
    const insert = (client: pg.Client) =>
      client.query(
        `INSERT INTO users (id, username, email, country, password_hash)
         VALUES ($1, 'Striped', $2, 'US', 'not-a-hash')`,
        [newId(), `striped-${newId()}@coffer.test`],
      );
    await first.client.query('BEGIN');
    await insert(first.client);
    // Waiting on the first one's counter row would fail here instead of hanging.
    await second.client.query("SET lock_timeout = '5s'");
    await insert(second.client);
    await first.client.query('COMMIT');
    const sum = await second.client.query(
      'SELECT sum(user_count)::bigint AS count FROM user_count_stripes',
    );
    expect(Number(sum.rows[0]?.count)).toBe(2);
    expect(Number((await second.client.query(countSql)).rows[0]?.count)).toBe(2);
  });
});
