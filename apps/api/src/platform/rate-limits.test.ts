// Per-customer limits on the money routes and the step-up challenge: keyed by the
// signed-in customer, so changing address does not dodge them and neighbours behind one
// address do not share them.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp, useTestApp } from '../../test/app.ts';
import { signedUpClient } from '../../test/http.ts';
import { bankDestination } from '../../test/payouts.ts';
import { moneyRequestsPerMinuteDefault } from '../config.ts';
import type { Database } from '../db/client.ts';

let db: Database;
let app: FastifyInstance;

useTestApp((opened) => {
  ({ app, db } = opened);
});

let addressCounter = 0;

/** A request with the customer's cookie from an address never used before. */
function fromNewAddress(
  target: FastifyInstance,
  cookie: string | undefined,
  url: string,
  payload: object,
): Promise<LightMyRequestResponse> {
  addressCounter += 1;
  return target.inject({
    method: 'POST',
    url,
    remoteAddress: `172.16.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`,
    headers: { cookie: cookie ?? '', 'idempotency-key': `limit-${addressCounter}` },
    payload,
  });
}

async function statusesOf(
  target: FastifyInstance,
  cookie: string | undefined,
  url: string,
  count: number,
): Promise<number[]> {
  const statuses: number[] = [];
  // An empty body is refused after the limit is counted: every request counts.
  for (let index = 0; index < count; index += 1) {
    statuses.push((await fromNewAddress(target, cookie, url, {})).statusCode);
  }
  return statuses;
}

describe('per-customer limits', () => {
  it.each(['/api/v1/transfers', '/api/v1/payouts', '/api/v1/bill-payments'])(
    `allows a customer ${moneyRequestsPerMinuteDefault} requests a minute to %s, from any address`,
    async (url) => {
      const { client } = await signedUpClient(app);
      const statuses = await statusesOf(app, client.cookie, url, moneyRequestsPerMinuteDefault);
      expect(statuses.every((status) => status !== 429)).toBe(true);

      const limited = await fromNewAddress(app, client.cookie, url, {});
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toEqual({
        code: 'rate_limited',
        message: 'Too many requests. Please try again later.',
      });
      const neighbour = await signedUpClient(app);
      expect((await fromNewAddress(app, neighbour.client.cookie, url, {})).statusCode).not.toBe(
        429,
      );
    },
  );

  it('allows a customer ten step-up challenges in 15 minutes, from any address', async () => {
    const { client } = await signedUpClient(app);
    const challenge = () =>
      fromNewAddress(app, client.cookie, '/api/v1/step-up/challenges', {
        purpose: 'payout',
        amount: '1.00',
        destination: bankDestination,
      });
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1) statuses.push((await challenge()).statusCode);
    // Refused ones count too (this customer has not verified their email): each may be a try.
    expect(statuses).toEqual([...Array(10).fill(403), 429]);
    expect((await challenge()).json().error.code).toBe('rate_limited');
  });

  it('takes the money routes’ number from COFFER_MONEY_REQUESTS_PER_MINUTE', async () => {
    const strict = await buildTestApp(db, { COFFER_MONEY_REQUESTS_PER_MINUTE: '3' });
    const { client } = await signedUpClient(strict);
    expect(await statusesOf(strict, client.cookie, '/api/v1/payouts', 4)).toEqual([
      400, 400, 400, 429,
    ]);
    await strict.close();
  });
});

describe('the cost of a per-customer limit', () => {
  it('is spent by the session look-up itself: a limited request makes no statement of its own', async () => {
    const statements: string[] = [];
    // The same database, every statement the app makes written down.
    const counted: Database = {
      ...db,
      query: (text, params, options) => {
        statements.push(text);
        return db.query(text, params, options);
      },
    };
    const counting = await buildTestApp(counted, { COFFER_MONEY_REQUESTS_PER_MINUTE: '1' });
    const { client } = await signedUpClient(counting);
    statements.length = 0;

    // Refused for its empty body once the limit is counted, then refused by the limit.
    const statuses = await statusesOf(counting, client.cookie, '/api/v1/transfers', 2);
    expect(statuses).toEqual([400, 429]);
    expect(statements).toHaveLength(2);
    expect(statements.every((text) => text.includes('FROM sessions'))).toBe(true);
    await counting.close();
  });
});
