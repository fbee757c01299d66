// Every API route, found from the app, called by every kind of caller with requests made
// from its own zod schemas: plausible shapes with hostile values, wrong types, missing and
// extra fields, bad JSON, wrong content types and path parameters that are not ids. Fixed
// seed, bounded count. No answer may be a 5xx, every error has the one JSON shape, and the
// ledger's invariants hold afterwards.
import { randomUUID } from 'node:crypto';
import { errorCodes } from '@coffer/contracts/errors';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { useTestApp } from '../test/app.ts';
import { createCustomer } from '../test/customers.ts';
import { staffClient } from '../test/http.ts';
import type { Database } from './db/client.ts';
import type { RegisteredRoute } from './platform/access.ts';
import { createSession } from './platform/sessions.ts';

let app: FastifyInstance;
let db: Database;
useTestApp((opened) => {
  ({ app, db } = opened);
});

const seed = 20_261_124;
/** Requests per route and caller: about 100 routes × 4 callers × this. */
const requestsPerRouteAndCaller = 20;

/** mulberry32: small, fast and the same on every machine for one seed. */
function randomFrom(initial: number) {
  let state = initial >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof randomFrom>;

const megabyteString = 'A'.repeat(1024 * 1024);
const hostileStrings = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  '99999999999999999999999999999999',
  '-99999999999999999999.99',
  '0.000000001',
  'NaN',
  'null',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202eevil',
  '\u200b\u200c\u200d\ufeff',
  'e\u0301\u0301\u0301',
  'İstanbul ß ﬁ',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  '﷽'.repeat(50),
  'Łukasz 山田 Ωmega',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  // A template placeholder as text, not as code.
  ['$', '{7*7}{{7*7}}'].join(''),
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '%00%2e%2e%2f',
  'x'.repeat(10_000),
  megabyteString,
];
const hostileNumbers = [0, -1, 1, -0, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, 5e-324];
const nonIds = ['not-an-id', '0', '-1', '..', '\u0000', '%ff%fe', 'x'.repeat(2000), '山田', "'"];

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  format?: string;
};

function jsonSchemaOf(schema: unknown): JsonSchema {
  if (!(schema instanceof z.core.$ZodType)) return {};
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** A value of the wrong kind for whatever the schema wants. */
function wrongType(random: Random): unknown {
  return random.pick([null, true, 42, -1e308, 'text', [], [1, 'a'], {}, { nested: { deep: [] } }]);
}

/** Values that pass many schemas, so that requests also reach the handlers' own checks. */
const plausibleStrings = ['1.00', '0.01', '250.00', '999999999999.99', 'electricity', 'Fuzz'];

function plausibleString(schema: JsonSchema, random: Random, ids: string[]): string {
  if (schema.format === 'uuid') return random.chance(0.7) ? random.pick(ids) : randomUUID();
  if (random.chance(0.35)) return random.pick(random.chance(0.5) ? plausibleStrings : ids);
  if (schema.format === 'email')
    return random.pick(['fuzz@coffer.test', 'a@b', '@', megabyteString]);
  if (schema.format === 'date') return random.pick(['2025-10-01', '2025-02-30', '0000-00-00']);
  return random.pick(hostileStrings);
}

/** A value shaped like `schema` wants, mostly, with hostile contents. */
function valueFor(schema: JsonSchema, random: Random, ids: string[], depth = 0): unknown {
  if (depth > 4 || random.chance(0.08)) return wrongType(random);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return valueFor(random.pick(alternatives), random, ids, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return random.chance(0.85) ? random.pick(schema.enum) : 'not-a-member';
  const type = Array.isArray(schema.type) ? random.pick(schema.type) : schema.type;
  switch (type) {
    case 'object':
      return objectFor(schema, random, ids, depth);
    case 'array':
      return Array.from({ length: random.pick([0, 1, 3, 1000]) }, () =>
        valueFor(schema.items ?? {}, random, ids, depth + 1),
      );
    case 'integer':
    case 'number':
      return random.pick(hostileNumbers);
    case 'boolean':
      return random.chance(0.9) ? random.chance(0.5) : 'true';
    case 'string':
      return plausibleString(schema, random, ids);
    default:
      return random.chance(0.5) ? random.pick(hostileStrings) : wrongType(random);
  }
}

function objectFor(schema: JsonSchema, random: Random, ids: string[], depth: number) {
  const object: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const isRequired = schema.required?.includes(name) ?? false;
    // Missing fields: required ones now and then, optional ones half the time.
    if (random.chance(isRequired ? 0.1 : 0.5)) continue;
    object[name] = valueFor(property, random, ids, depth + 1);
  }
  if (random.chance(0.2)) object[random.pick(['extra', '__proto__', 'constructor', 'id'])] = 1;
  return object;
}

/** Every byte percent-escaped (lone surrogates included, which encodeURIComponent refuses). */
function percentEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    .join('');
}

function pathFor(url: string, random: Random, ids: string[]): string {
  return url
    .replace(/:(\w+)/g, () =>
      random.chance(0.5)
        ? random.pick(ids)
        : random.chance(0.1)
          ? '%zz%ff%'
          : percentEncoded(random.pick(nonIds)),
    )
    .replace('*', random.pick(['swagger-ui.css', 'nope.js', '..%2f..%2fpackage.json']));
}

function queryFor(schema: JsonSchema, random: Random, ids: string[]): string {
  const values = objectFor(schema, random, ids, 0);
  const pairs = Object.entries(values).map(([name, value]) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return `${percentEncoded(name)}=${percentEncoded(text.slice(0, 5000))}`;
  });
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** The body, as JSON of a plausible shape or as something that is not what it claims. */
function bodyFor(schema: JsonSchema, random: Random, ids: string[]) {
  const roll = random.next();
  if (roll < 0.08) return { payload: '{"amount": "1.00",', contentType: 'application/json' };
  if (roll < 0.14) return { payload: 'amount=1.00', contentType: 'text/plain' };
  if (roll < 0.18) {
    return { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' };
  }
  if (roll < 0.22) return { payload: '\u0000\u00ff', contentType: 'application/octet-stream' };
  if (roll < 0.26)
    return { payload: JSON.stringify(wrongType(random)), contentType: 'application/json' };
  if (roll < 0.3) return { payload: '', contentType: 'application/json' };
  return {
    payload: JSON.stringify(valueFor(schema, random, ids)),
    contentType: random.chance(0.9) ? 'application/json' : 'application/json; charset=latin1',
  };
}

type Caller = { name: string; userId: string | undefined; remoteAddress: string };

/**
 * A fresh session of the caller for each request: an earlier request may have signed it
 * out, revoked its sessions or changed its password.
 */
async function cookieOf(caller: Caller): Promise<string | undefined> {
  if (!caller.userId) return undefined;
  const { token } = await createSession(db, {
    userId: caller.userId,
    userAgent: 'fuzzer',
    ipAddress: caller.remoteAddress,
  });
  return `coffer_session=${token}`;
}

function requestFor(
  route: RegisteredRoute,
  caller: Caller,
  cookie: string | undefined,
  random: Random,
  ids: string[],
) {
  const schema = route.schema as Record<string, unknown> | undefined;
  const options: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url: pathFor(route.url, random, ids) + queryFor(jsonSchemaOf(schema?.querystring), random, ids),
    remoteAddress: caller.remoteAddress,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(random.chance(0.5) ? { 'idempotency-key': randomUUID() } : {}),
    },
  };
  if (route.method !== 'GET' && route.method !== 'DELETE') {
    const { payload, contentType } = bodyFor(jsonSchemaOf(schema?.body), random, ids);
    options.payload = payload;
    options.headers = { ...options.headers, 'content-type': contentType };
  }
  return options;
}

const errorBodySchema = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(errorCodes) as [string, ...string[]]),
    message: z.string().check(z.minLength(1)),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});

// Some 10,000 requests, one after another (each route × each caller × requestsPerRouteAndCaller):
// the time grows with the routes, so this test has a limit of its own, not the project's.
const fuzzTimeoutMs = 240_000;

describe('fuzzing every route', () => {
  it('answers every hostile request without a 5xx, every error in the standard shape', {
    timeout: fuzzTimeoutMs,
  }, async () => {
    const customer = await createCustomer(app, { balance: '1000.00', level: 2 });
    const other = await createCustomer(app, { balance: '10.00' });
    const support = await staffClient(app, 'support');
    const admin = await staffClient(app, 'admin');
    // Real ids and account numbers, so that some requests name things that exist.
    const ids = [
      customer.user.id,
      other.user.id,
      support.user.id,
      admin.user.id,
      randomUUID(),
      other.wallet.number,
    ];
    const callers: Caller[] = [
      { name: 'anonymous', userId: undefined, remoteAddress: '10.250.0.1' },
      { name: 'customer', userId: customer.user.id, remoteAddress: '10.250.0.2' },
      { name: 'support', userId: support.user.id, remoteAddress: '10.250.0.3' },
      { name: 'admin', userId: admin.user.id, remoteAddress: '10.250.0.4' },
    ];
    const routes = app.registeredRoutes.filter((route) => route.url.startsWith('/api/'));
    const random = randomFrom(seed);
    const failures: string[] = [];
    let sent = 0;
    const statuses = new Map<number, number>();
    for (const route of routes) {
      for (const caller of callers) {
        // A stream stays open: only a caller it refuses gets a whole answer.
        if (route.config?.isEventStream && caller.name !== 'anonymous') continue;
        for (let n = 0; n < requestsPerRouteAndCaller; n += 1) {
          const request = requestFor(route, caller, await cookieOf(caller), random, ids);
          const response = await app.inject(request);
          sent += 1;
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          const what = `${caller.name} ${request.method} ${String(request.url).slice(0, 200)}`;
          if (response.statusCode >= 500) {
            failures.push(`${what} → ${response.statusCode} ${response.body.slice(0, 300)}`);
          } else if (response.statusCode >= 400) {
            const parsed = errorBodySchema.safeParse(safeJson(response.body));
            if (!parsed.success) {
              failures.push(
                `${what} → ${response.statusCode} not the error shape: ${response.body.slice(0, 300)}`,
              );
            }
          }
        }
      }
    }
    const tally = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
    console.log(
      `fuzzer: ${sent} requests to ${routes.length} routes, ${failures.length} failures (${tally.join(' ')})`,
    );
    for (const failure of failures) console.log(`fuzzer failure: ${failure}`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(routes.length * 3 * requestsPerRouteAndCaller);
    await app.ledger.assertInvariants();
  });
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
