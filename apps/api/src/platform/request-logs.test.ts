// What the request log keeps of a URL: the path, to find the route; never the query's
// values, which carry staff search terms and other personal data (search=greta.walk).
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { openTestDatabase } from '../../test/database.ts';
import type { Database } from '../db/client.ts';

let db: Database;
let app: FastifyInstance;
const logLines: string[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildTestApp(db, { COFFER_LOG_LEVEL: 'info' }, { logStream });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('the request log', () => {
  it('keeps the path of a request and leaves out the values of its query string', async () => {
    logLines.length = 0;
    await app.inject({
      method: 'GET',
      url: '/api/v1/admin/users?search=greta.walk&limit=20&greta%40example.org',
    });
    const log = logLines.join('');
    expect(log).toContain(
      '"url":"/api/v1/admin/users?search=[redacted]&limit=[redacted]&[redacted]"',
    );
    expect(log).not.toMatch(/greta/);
  });

  it('logs a URL without a query string as it came', async () => {
    logLines.length = 0;
    await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(logLines.join('')).toContain('"url":"/api/v1/health"');
  });
});
