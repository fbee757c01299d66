// Client addresses behind a reverse proxy (COFFER_TRUST_PROXY): per-address limits,
// throttles, the audit log, sessions and the Origin check all see the client, never the
// proxy; and without a trusted proxy, X-Forwarded-* headers change nothing.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/app.ts';
import { openTestDatabase } from '../test/database.ts';
import { signedUpClient } from '../test/http.ts';
import type { Database } from './db/client.ts';

let db: Database;
let behindProxy: FastifyInstance;
let behindListedProxy: FastifyInstance;
let direct: FastifyInstance;

beforeAll(async () => {
  db = await openTestDatabase();
  behindProxy = await buildTestApp(db, { COFFER_TRUST_PROXY: '1' });
  behindListedProxy = await buildTestApp(db, { COFFER_TRUST_PROXY: '10.200.0.0/16, ::1' });
  direct = await buildTestApp(db);
  await Promise.all([behindProxy.ready(), behindListedProxy.ready(), direct.ready()]);
});
afterAll(async () => {
  await Promise.all([behindProxy.close(), behindListedProxy.close(), direct.close()]);
  await db.close();
});

/** A request as it reaches Coffer: from `socketAddress`, with whatever headers it carries. */
function send(
  app: FastifyInstance,
  options: {
    socketAddress: string;
    forwardedFor?: string;
    method?: 'GET' | 'POST';
    url: string;
    payload?: object;
    headers?: Record<string, string>;
  },
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: options.method ?? 'POST',
    url: options.url,
    remoteAddress: options.socketAddress,
    headers: {
      ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
      ...options.headers,
    },
    ...(options.payload ? { payload: options.payload } : {}),
  });
}

const forgotPassword = (index: number) => ({
  url: '/api/v1/auth/forgot-password',
  payload: { email: `someone${index}@example.com` },
});

const failedLogin = (index: number) => ({
  url: '/api/v1/auth/login',
  payload: { email: `spray${index}.${Date.now()}@example.com`, password: 'not-it' },
});

async function statusesOf(requests: (() => Promise<LightMyRequestResponse>)[]) {
  const statuses: number[] = [];
  for (const request of requests) statuses.push((await request()).statusCode);
  return statuses;
}

describe('behind one trusted proxy (COFFER_TRUST_PROXY=1)', () => {
  const proxy = '10.1.0.1';

  it('limits two clients behind the proxy separately', async () => {
    const first = await statusesOf(
      Array.from(
        { length: 6 },
        (_, index) => () =>
          send(behindProxy, {
            socketAddress: proxy,
            forwardedFor: '203.0.113.10',
            ...forgotPassword(index),
          }),
      ),
    );
    expect(first).toEqual([202, 202, 202, 202, 202, 429]);
    const other = await send(behindProxy, {
      socketAddress: proxy,
      forwardedFor: '203.0.113.20',
      ...forgotPassword(99),
    });
    expect(other.statusCode).toBe(202);
  });

  it('counts failed logins per client, not for everyone behind the proxy', async () => {
    const sprayer = await statusesOf(
      Array.from(
        { length: 31 },
        (_, index) => () =>
          send(behindProxy, {
            socketAddress: proxy,
            forwardedFor: '203.0.113.30',
            ...failedLogin(index),
          }),
      ),
    );
    expect(sprayer.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(sprayer[30]).toBe(429);
    const { body } = await signedUpClient(behindProxy);
    const neighbour = await send(behindProxy, {
      socketAddress: proxy,
      forwardedFor: '203.0.113.31',
      url: '/api/v1/auth/login',
      payload: { email: body.email, password: body.password },
    });
    expect(neighbour.statusCode).toBe(200);
  });

  it("records the client's address, not the proxy's, on the session and in the audit log", async () => {
    const { body, user } = await signedUpClient(behindProxy);
    // A client may send its own X-Forwarded-For: the proxy appends the address it saw.
    const login = await send(behindProxy, {
      socketAddress: proxy,
      forwardedFor: '198.51.100.66, 203.0.113.40',
      url: '/api/v1/auth/login',
      payload: { email: body.email, password: body.password },
    });
    expect(login.statusCode).toBe(200);
    const failed = await send(behindProxy, {
      socketAddress: proxy,
      forwardedFor: '203.0.113.41',
      url: '/api/v1/auth/login',
      payload: { email: body.email, password: 'not-it' },
    });
    expect(failed.statusCode).toBe(401);

    const sessions = await db.query<{ ip_address: string }>(
      'SELECT ip_address FROM sessions WHERE user_id = $1 ORDER BY created_at',
      [user.id],
    );
    expect(sessions.rows.at(-1)?.ip_address).toBe('203.0.113.40');
    const audit = await db.query<{ action: string; ip_address: string }>(
      `SELECT action, ip_address FROM audit_events
        WHERE subject_user_id = $1 AND action IN ('login_succeeded', 'login_failed')
        ORDER BY created_at`,
      [user.id],
    );
    expect(audit.rows).toEqual([
      { action: 'login_succeeded', ip_address: '203.0.113.40' },
      { action: 'login_failed', ip_address: '203.0.113.41' },
    ]);
  });

  it('takes the scheme and host of the Origin check from the proxy', async () => {
    const { client } = await signedUpClient(behindProxy);
    const logout = await send(behindProxy, {
      socketAddress: proxy,
      forwardedFor: '203.0.113.50',
      url: '/api/v1/auth/logout',
      headers: {
        cookie: client.cookie ?? '',
        host: '127.0.0.1:3000',
        origin: 'https://bank.example.org',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'bank.example.org',
      },
    });
    expect(logout.statusCode).toBe(204);
  });
});

describe('behind a proxy listed by address (COFFER_TRUST_PROXY=10.200.0.0/16, ::1)', () => {
  it('believes X-Forwarded-For only from the listed proxies', async () => {
    const viaProxy = (index: number) => () =>
      send(behindListedProxy, {
        socketAddress: '10.200.3.4',
        forwardedFor: `203.0.113.${60 + index}`,
        ...forgotPassword(index),
      });
    // Six clients behind the proxy: one request each, nobody is limited.
    expect(await statusesOf(Array.from({ length: 6 }, (_, index) => viaProxy(index)))).toEqual(
      Array(6).fill(202),
    );
    // A client outside the list naming other addresses is still one client.
    const spoofer = (index: number) => () =>
      send(behindListedProxy, {
        socketAddress: '192.0.2.9',
        forwardedFor: `203.0.113.${70 + index}`,
        ...forgotPassword(index),
      });
    expect(await statusesOf(Array.from({ length: 6 }, (_, index) => spoofer(index)))).toEqual([
      202, 202, 202, 202, 202, 429,
    ]);
  });
});

describe('without a trusted proxy (the default)', () => {
  const socketAddress = '10.9.0.1';

  it('ignores X-Forwarded-For: a client cannot dodge a limit by naming other addresses', async () => {
    const statuses = await statusesOf(
      Array.from(
        { length: 6 },
        (_, index) => () =>
          send(direct, {
            socketAddress,
            forwardedFor: `203.0.113.${index + 1}`,
            ...forgotPassword(index),
          }),
      ),
    );
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('ignores X-Forwarded-For on failed logins', async () => {
    const statuses = await statusesOf(
      Array.from(
        { length: 31 },
        (_, index) => () =>
          send(direct, {
            socketAddress: '10.9.0.2',
            forwardedFor: `203.0.113.${index + 1}`,
            ...failedLogin(index),
          }),
      ),
    );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
  });

  it('records the socket address in the audit log and ignores X-Forwarded-Proto and -Host', async () => {
    const { body, user, client } = await signedUpClient(direct);
    await send(direct, {
      socketAddress: '10.9.0.3',
      forwardedFor: '203.0.113.99',
      url: '/api/v1/auth/login',
      payload: { email: body.email, password: 'not-it' },
    });
    const audit = await db.query<{ ip_address: string }>(
      "SELECT ip_address FROM audit_events WHERE subject_user_id = $1 AND action = 'login_failed'",
      [user.id],
    );
    expect(audit.rows).toEqual([{ ip_address: '10.9.0.3' }]);
    const crossSite = await send(direct, {
      socketAddress: '10.9.0.3',
      url: '/api/v1/auth/logout',
      headers: {
        cookie: client.cookie ?? '',
        host: '127.0.0.1:3000',
        origin: 'https://bank.example.org',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'bank.example.org',
      },
    });
    expect(crossSite.statusCode).toBe(403);
  });
});
