// Approval under concurrency, through the real routes: true concurrency needs PostgreSQL.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.ts';
import { newIdempotencyKey, signedUpClient, staffClient } from '../../test/http.ts';
import type { Database } from '../db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp(
  (opened) => {
    ({ app, db } = opened);
  },
  { poolSize: 20, checksAfterEach: 'ledger' },
);

/** Counts answers by request status or error code; a 5xx (a deadlock, a bug) fails the test. */
function outcomes(responses: LightMyRequestResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const response of responses) {
    expect(response.statusCode, response.body).toBeLessThan(500);
    const body = response.json();
    const key = response.statusCode < 300 ? (body.status ?? 'ok') : body.error.code;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe('approval under concurrency', () => {
  it('lets no two concurrent small postings both slip under the daily total', async () => {
    const maker = await staffClient(app, 'admin');
    const { user } = await signedUpClient(app);
    // USD: 10,000.00 at most at once, 25,000.00 a day; twelve of 5,000.00 at once.
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        maker.client.post(
          `/api/v1/admin/users/${user.id}/deposits`,
          { amount: '5000.00', reason: 'Split wire' },
          { 'idempotency-key': newIdempotencyKey() },
        ),
      ),
    );
    expect(outcomes(responses)).toEqual({ posted: 5, pending_approval: 7 });
    const detail = (await maker.client.get(`/api/v1/admin/users/${user.id}`)).json();
    expect(detail.wallet.balanceMinor).toBe('2500000');
    const total = await db.query<{ posted_minor: bigint }>(
      'SELECT posted_minor FROM four_eyes_daily_totals WHERE maker_user_id = $1',
      [maker.user.id],
    );
    expect(total.rows.map((row) => row.posted_minor)).toEqual([2_500_000n]);
  });

  it('lets exactly one of a concurrent approve and cancel win, and posts at most once', async () => {
    const support = await staffClient(app, 'support');
    const checkers = await Promise.all([staffClient(app, 'admin'), staffClient(app, 'admin')]);
    const { user } = await signedUpClient(app);
    for (let round = 0; round < 5; round += 1) {
      const pending = (
        await support.client.post(
          `/api/v1/admin/users/${user.id}/deposits`,
          { amount: '1.00', reason: 'Branch cash' },
          { 'idempotency-key': newIdempotencyKey() },
        )
      ).json();
      const path = `/api/v1/admin/money-requests/${pending.id}`;
      const responses = await Promise.all([
        support.client.post(`${path}/cancel`, {}),
        ...checkers.map((checker) => checker.client.post(`${path}/approve`, {})),
      ]);
      const counts = outcomes(responses);
      expect(counts.already_decided).toBe(2);
      expect((counts.posted ?? 0) + (counts.cancelled ?? 0)).toBe(1);
    }
    const entries = await db.query<{ count: bigint }>(
      `SELECT count(*)::bigint AS count FROM money_requests
        WHERE user_id = $1 AND status = 'posted'`,
      [user.id],
    );
    const detail = (await checkers[0].client.get(`/api/v1/admin/users/${user.id}`)).json();
    expect(BigInt(detail.wallet.balanceMinor)).toBe((entries.rows[0]?.count ?? 0n) * 100n);
  });
});
