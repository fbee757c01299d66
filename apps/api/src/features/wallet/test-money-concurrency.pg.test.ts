// Sandbox test money sent in parallel: the daily cap holds however many requests arrive
// at once, because each one is counted under the wallet's lock. Needs PostgreSQL.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app.ts';
import { openTestDatabase } from '../../../test/database.ts';
import { signedUpClient } from '../../../test/http.ts';
import type { Database } from '../../db/client.ts';

let db: Database;
let app: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase({ poolSize: 20 });
  app = await buildTestApp(db, { COFFER_SANDBOX: '1' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

describe('test money under concurrency', () => {
  it('credits at most the daily cap when twelve requests of a third of it arrive at once', async () => {
    const { client } = await signedUpClient(app);
    // USD: 25,000.00 a day, so at most three of these fit, whatever the interleaving.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        client.post(
          '/api/v1/wallet/test-money',
          { amount: '8000.00' },
          {
            'idempotency-key': `parallel-test-money-${index}`,
          },
        ),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(409)]);
    expect((await client.get('/api/v1/wallet')).json().balanceMinor).toBe('2400000');
    await app.ledger.assertInvariants();
  });
});
