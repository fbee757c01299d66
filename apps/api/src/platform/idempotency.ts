import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Queryable } from '../db/client.ts';
import { AppError } from './app-error.ts';

/** Keys are kept at least this long; a retry within it gets the first answer back. */
export const idempotencyKeyTtlMs = 24 * 60 * 60 * 1000;
const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

export type StoredResponse = { status: number; body: unknown };

/** Sorted keys, so that the same JSON body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function hashRequest(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

function errorResponse(error: AppError): StoredResponse {
  return {
    status: error.status,
    body: {
      error: {
        code: error.code,
        message: error.message,
        ...(error.fields ? { fields: error.fields } : {}),
      },
    },
  };
}

/**
 * Runs `operation` at most once per (scope, key). The key row is written in the same
 * transaction as the operation's effects, so a concurrent retry waits on the key's unique
 * index until the first commits and then gets its stored answer; if the first fails with
 * a bug and rolls back, the key is free again. Expected failures (AppError) are stored
 * too, so a retry is told the same thing.
 */
export async function runIdempotent(
  db: Database,
  request: { scope: string; key: string; requestHash: string },
  operation: (tx: Queryable) => Promise<StoredResponse>,
): Promise<StoredResponse & { isReplay: boolean }> {
  return db.transaction(async (tx) => {
    const claimed = await tx.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body)
       VALUES ($1, $2, $3, 0, 'null') ON CONFLICT DO NOTHING RETURNING key`,
      [request.scope, request.key, request.requestHash],
    );
    if (claimed.rows.length === 0) {
      const stored = await tx.query<{
        request_hash: string;
        response_status: number;
        response_body: unknown;
      }>(
        `SELECT request_hash, response_status, response_body FROM idempotency_keys
          WHERE scope = $1 AND key = $2`,
        [request.scope, request.key],
      );
      const row = stored.rows[0];
      if (!row) throw new AppError('idempotency_in_progress');
      if (row.request_hash !== request.requestHash) throw new AppError('idempotency_key_reused');
      return { status: row.response_status, body: row.response_body, isReplay: true };
    }

    await tx.query('SAVEPOINT idempotent_operation');
    let response: StoredResponse;
    try {
      response = await operation(tx);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await tx.query('ROLLBACK TO SAVEPOINT idempotent_operation');
      response = errorResponse(error);
    }
    await tx.query(
      `UPDATE idempotency_keys SET response_status = $3, response_body = $4
        WHERE scope = $1 AND key = $2`,
      [request.scope, request.key, response.status, JSON.stringify(response.body)],
    );
    return { ...response, isReplay: false };
  });
}

/** A finished answer stored under the key, or null when the key is new or still running. */
async function storedResponse(
  db: Queryable,
  request: { scope: string; key: string; requestHash: string },
): Promise<StoredResponse | null> {
  const found = await db.query<{
    request_hash: string;
    response_status: number;
    response_body: unknown;
  }>(
    `SELECT request_hash, response_status, response_body FROM idempotency_keys
      WHERE scope = $1 AND key = $2 AND response_status <> 0`,
    [request.scope, request.key],
  );
  const row = found.rows[0];
  if (!row) return null;
  if (row.request_hash !== request.requestHash) throw new AppError('idempotency_key_reused');
  return { status: row.response_status, body: row.response_body };
}

/**
 * The route-side wrapper: reads and checks the Idempotency-Key header, runs the operation
 * once and answers with the stored status and body (marking replays).
 *
 * `prepare` runs outside the transaction, only for a key not answered yet: checks whose
 * side effects must outlive a refusal (a wrong step-up code uses up a try) go there, and
 * what it returns is handed to the operation. A step-up code is not part of the request's
 * identity: a retry with a fresh code still replays the first answer.
 */
export async function replyIdempotent<Prepared = undefined>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  operation: (tx: Queryable, prepared: Prepared) => Promise<StoredResponse>,
  prepare?: () => Promise<Prepared>,
): Promise<FastifyReply> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !idempotencyKeyPattern.test(key)) {
    throw new AppError('idempotency_key_required');
  }
  const { stepUpCode: _stepUpCode, ...identity } = (request.body ?? {}) as Record<string, unknown>;
  const requestHash = hashRequest(
    request.method,
    request.routeOptions.url ?? request.url,
    request.body === undefined ? undefined : identity,
  );
  const claim = { scope, key, requestHash };
  const { db } = request.server;
  const replay = (stored: StoredResponse) =>
    reply.header('idempotent-replayed', 'true').status(stored.status).send(stored.body);
  const earlier = prepare ? await storedResponse(db, claim) : null;
  if (earlier) return replay(earlier);
  let prepared: Prepared;
  try {
    prepared = prepare ? await prepare() : (undefined as Prepared);
  } catch (error) {
    // A twin request with this key may have finished meanwhile and spent the step-up
    // code this one was checking: its answer is this request's answer too.
    const finished = error instanceof AppError ? await storedResponse(db, claim) : null;
    if (finished) return replay(finished);
    throw error;
  }
  const result = await runIdempotent(db, claim, (tx) => operation(tx, prepared));
  if (result.isReplay) reply.header('idempotent-replayed', 'true');
  return reply.status(result.status).send(result.body);
}

/** Forgets keys older than the TTL; run periodically. */
export async function purgeExpiredIdempotencyKeys(
  db: Queryable,
  now = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - idempotencyKeyTtlMs);
  const deleted = await db.query(
    'DELETE FROM idempotency_keys WHERE created_at < $1 RETURNING key',
    [cutoff],
  );
  return deleted.rows.length;
}
