import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { useTestApp } from '../../test/app.ts';
import { createWallet, transferLines } from '../../test/factories.ts';
import type { Database } from '../db/client.ts';
import type { AccountId } from '../ledger/ledger.ts';
import { replyIdempotent } from './idempotency.ts';

let db: Database;
let app: FastifyInstance;
let isFailingWithBug = false;

const transferBodySchema = z.object({ from: z.string(), to: z.string(), amountMinor: z.string() });

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  {
    poolSize: 30,
    // A money-moving route for these tests only: the real ones arrive with their features.
    beforeReady: (opened) => {
      opened.app.post(
        '/api/v1/test-transfers',
        { config: { access: 'public', isIdempotent: true }, schema: { body: transferBodySchema } },
        (request, reply) =>
          replyIdempotent(request, reply, 'test-scope', async (tx) => {
            const body = transferBodySchema.parse(request.body);
            const entry = await opened.app.ledger.post(
              {
                kind: 'transfer',
                memo: 'idempotency test',
                lines: transferLines(
                  body.from as AccountId,
                  body.to as AccountId,
                  BigInt(body.amountMinor),
                ),
              },
              tx,
            );
            if (isFailingWithBug) throw new Error('a bug after the posting');
            return { status: 201, body: { entryId: entry.entryId } };
          }),
      );
    },
  },
);
afterEach(async () => {
  isFailingWithBug = false;
  await app.ledger.assertInvariants();
});

function transfer(key: string | undefined, payload: object) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/test-transfers',
    headers: key === undefined ? {} : { 'idempotency-key': key },
    payload,
  });
}

async function entryCount(): Promise<number> {
  const result = await db.query<{ count: bigint }>(
    'SELECT count(*)::bigint AS count FROM journal_entries',
  );
  return Number(result.rows[0]?.count);
}

describe('Idempotency-Key', () => {
  it('is required on money-moving routes', async () => {
    const from = await createWallet(app.ledger, { balance: '10.00' });
    const to = await createWallet(app.ledger);
    const response = await transfer(undefined, { from, to, amountMinor: '100' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('idempotency_key_required');
    expect((await app.ledger.balance(to)).balanceMinor).toBe(0n);
  });

  it('replays the first answer to a retry without applying it again', async () => {
    const from = await createWallet(app.ledger, { balance: '10.00' });
    const to = await createWallet(app.ledger);
    const key = crypto.randomUUID();
    const first = await transfer(key, { from, to, amountMinor: '100' });
    const retry = await transfer(key, { to, amountMinor: '100', from });
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect((await app.ledger.balance(to)).balanceMinor).toBe(100n);
  });

  it('refuses the same key with a different request with a 422', async () => {
    const from = await createWallet(app.ledger, { balance: '10.00' });
    const to = await createWallet(app.ledger);
    const key = crypto.randomUUID();
    await transfer(key, { from, to, amountMinor: '100' });
    const changed = await transfer(key, { from, to, amountMinor: '900' });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().error.code).toBe('idempotency_key_reused');
    expect((await app.ledger.balance(to)).balanceMinor).toBe(100n);
  });

  it('stores an expected failure and answers the retry the same way', async () => {
    const from = await createWallet(app.ledger, { balance: '1.00' });
    const to = await createWallet(app.ledger);
    const key = crypto.randomUUID();
    const first = await transfer(key, { from, to, amountMinor: '500' });
    expect(first.statusCode).toBe(409);
    expect(first.json().error.code).toBe('insufficient_funds');
    await app.ledger.post({
      kind: 'deposit',
      memo: 'top up',
      lines: transferLines(
        await app.ledger.systemAccount('settlement', (await app.ledger.balance(from)).currency),
        from,
        1000n,
      ),
    });
    const retry = await transfer(key, { from, to, amountMinor: '500' });
    expect(retry.statusCode).toBe(409);
    expect((await app.ledger.balance(to)).balanceMinor).toBe(0n);
  });

  it('frees the key when the operation fails with a bug, writing nothing', async () => {
    const from = await createWallet(app.ledger, { balance: '10.00' });
    const to = await createWallet(app.ledger);
    const key = crypto.randomUUID();
    const entriesBefore = await entryCount();
    isFailingWithBug = true;
    const failed = await transfer(key, { from, to, amountMinor: '100' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({
      error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' },
    });
    expect(await entryCount()).toBe(entriesBefore);
    isFailingWithBug = false;
    const retry = await transfer(key, { from, to, amountMinor: '100' });
    expect(retry.statusCode).toBe(201);
    expect((await app.ledger.balance(to)).balanceMinor).toBe(100n);
  });

  it('applies 50 concurrent retries with one key exactly once, and all get the same answer', async () => {
    const from = await createWallet(app.ledger, { balance: '10.00' });
    const to = await createWallet(app.ledger);
    const key = crypto.randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => transfer(key, { from, to, amountMinor: '250' })),
    );
    expect(new Set(responses.map((response) => response.statusCode))).toEqual(new Set([201]));
    expect(new Set(responses.map((response) => response.body)).size).toBe(1);
    expect((await app.ledger.balance(to)).balanceMinor).toBe(250n);
    expect((await app.ledger.balance(from)).balanceMinor).toBe(750n);
  });
});
