// What reaches the log when a statement fails: enough to find the bug (the SQLSTATE, the
// constraint), never the values the statement carried (an ID number, an address).
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/app.ts';
import { openTestDatabase } from '../../test/database.ts';
import type { Database } from '../db/client.ts';

const secretIdNumber = 'P-SECRET-4711';
const secretAddress = '221B Hidden Street';
const secretDate = '0000-01-01';

let db: Database;
let app: FastifyInstance;
const logLines: string[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  await db.query('CREATE TABLE log_probe (id_number text UNIQUE)');
  await db.query('INSERT INTO log_probe (id_number) VALUES ($1)', [secretIdNumber]);
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  app = await buildTestApp(db, { COFFER_LOG_LEVEL: 'error' }, { logStream });
  // Routes that fail in the database as a bug would: the statement carries personal data.
  app.get('/test/bad-date', { config: { access: 'public' } }, async () => {
    await app.db.query('SELECT $1::date AS born, $2::text AS id_number, $3::text AS address', [
      secretDate,
      secretIdNumber,
      secretAddress,
    ]);
    return {};
  });
  app.get('/test/division', { config: { access: 'public' } }, async () => {
    await app.db.query('SELECT 1 / $1::int AS quotient', [0]);
    return {};
  });
  app.get('/test/duplicate', { config: { access: 'public' } }, async () => {
    await app.db.transaction((tx) =>
      tx.query('INSERT INTO log_probe (id_number) VALUES ($1)', [secretIdNumber]),
    );
    return {};
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.close();
});

async function loggedFor(url: string): Promise<{ status: number; log: string }> {
  logLines.length = 0;
  const response = await app.inject({ method: 'GET', url });
  return { status: response.statusCode, log: logLines.join('') };
}

describe('a failed statement in the log', () => {
  it('logs the SQLSTATE of a data exception, none of the statement’s values', async () => {
    const { log } = await loggedFor('/test/bad-date');
    expect(log).toContain('22008');
    expect(log).not.toContain(secretIdNumber);
    expect(log).not.toContain(secretAddress);
    expect(log).not.toContain(secretDate);
  });

  it('answers a value the database cannot take that passed its schema as bad input, logged as a bug', async () => {
    const { status, log } = await loggedFor('/test/bad-date');
    expect(status).toBe(400);
    expect(log).toContain('"level":50');
  });

  it('keeps the 500 for a data exception no input explains (division by zero)', async () => {
    const { status, log } = await loggedFor('/test/division');
    expect(status).toBe(500);
    expect(log).toContain('22012');
  });

  it('logs the constraint of a unique violation, not the duplicate value', async () => {
    const { status, log } = await loggedFor('/test/duplicate');
    expect(status).toBe(500);
    expect(log).toContain('23505');
    expect(log).toContain('log_probe_id_number_key');
    expect(log).not.toContain(secretIdNumber);
  });

  it('carries no statement values on the error itself, for whoever prints it', async () => {
    const failing = (query: (text: string, params: unknown[]) => Promise<unknown>) =>
      query('SELECT $1::text AS id_number, 1 / $2::int AS quotient', [secretIdNumber, 0]).then(
        () => null,
        (error: unknown) => error,
      );
    const outside = await failing((text, params) => db.query(text, params));
    const inside = await failing((text, params) => db.transaction((tx) => tx.query(text, params)));
    for (const error of [outside, inside]) {
      expect(error).toMatchObject({ code: '22012' });
      expect(inspect(error)).not.toContain(secretIdNumber);
    }
  });
});
