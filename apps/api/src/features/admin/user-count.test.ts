// Total Users comes from the counter the triggers on users keep (migration 0020), not from
// count(*): it must agree with count(*) after every kind of change to the table.
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bareUser } from '../../../test/customers.ts';
import { signedUpClient, staffClient, TestClient } from '../../../test/http.ts';
import type { Database, Queryable } from '../../db/client.ts';
import { insertUser } from '../auth/queries.ts';
import { countUsers } from './queries.ts';

let db: Database;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof staffClient>>;

useTestApp(async (opened) => {
  ({ app, db } = opened);
  admin = await staffClient(app, 'admin');
});

async function rowCount(): Promise<number> {
  const counted = await db.query<{ count: bigint }>('SELECT count(*)::bigint AS count FROM users');
  return Number(counted.rows[0]?.count);
}

/** A user with nothing attached, so it can be deleted again; its id. */
async function bareUserIn(tx: Queryable): Promise<string> {
  const user = bareUser();
  await insertUser(tx, user);
  return user.id;
}

describe('Total Users', () => {
  it('counts sign-ups and staff, and the list shows the same exact number', async () => {
    await signedUpClient(app);
    await signedUpClient(app);
    await staffClient(app, 'support');
    const total = await rowCount();
    expect(total).toBeGreaterThanOrEqual(4);
    expect(await countUsers(db)).toBe(total);
    expect((await admin.client.get('/api/v1/admin/users')).json().totalUsers).toBe(total);
  });

  it('leaves out rolled-back inserts and a sign-up refused for an address in use', async () => {
    const before = await countUsers(db);
    await expect(
      db.transaction(async (tx) => {
        await bareUserIn(tx);
        await bareUserIn(tx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const { body } = await signedUpClient(app);
    const again = await new TestClient(app).post('/api/v1/auth/signup', body);
    expect(again.json().error.code).toBe('email_in_use');
    expect(await countUsers(db)).toBe(before + 1);
    expect(await countUsers(db)).toBe(await rowCount());
  });

  it('counts many rows inserted or deleted by one statement, and single deletes', async () => {
    const before = await countUsers(db);
    await db.query(
      `INSERT INTO users (id, username, email, country, password_hash)
       SELECT gen_random_uuid(), 'Bulk ' || n, 'bulk' || n || '@coffer.test', 'US', 'not-a-hash'
         FROM generate_series(1, 50) AS n`,
    );
    expect(await countUsers(db)).toBe(before + 50);
    await db.query(
      "DELETE FROM users WHERE email LIKE 'bulk%@coffer.test' AND username <> 'Bulk 7'",
    );
    expect(await countUsers(db)).toBe(before + 1);
    const single = await bareUserIn(db);
    expect(await countUsers(db)).toBe(before + 2);
    await db.query('DELETE FROM users WHERE id = $1', [single]);
    await db.query("DELETE FROM users WHERE username = 'Nobody At All'");
    expect(await countUsers(db)).toBe(before + 1);
    expect(await countUsers(db)).toBe(await rowCount());
  });
});
