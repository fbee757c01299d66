import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod/mini';
import type { Database, Queryable } from '../db/client.ts';
import { AppError } from './app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route moves money: it takes an Idempotency-Key (refused with 400 without one) and
     * answers through replyIdempotent. The conformance tests (docs/IDEMPOTENCY.md) find the
     * money routes by this declaration.
     */
    isIdempotent?: boolean;
  }
}

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

/** The key a request claims, with the hash of what it asks for. */
export type IdempotencyClaim = { scope: string; key: string; requestHash: string };

/** What idempotency_claim (db/functions/idempotency_claim.sql) and the functions built on it answer. */
export type ClaimRow = {
  is_claimed: boolean;
  request_hash: string;
  response_status: number;
  response_body: unknown;
};

/** The stored answer of a key someone else claimed, checked against this request. */
function storedAnswerOf(claim: IdempotencyClaim, row: ClaimRow | undefined): StoredResponse {
  // The claiming transaction rolled back and its key vanished between the two reads.
  if (!row || row.response_status === 0) throw new AppError('idempotency_in_progress');
  if (row.request_hash !== claim.requestHash) throw new AppError('idempotency_key_reused');
  return { status: row.response_status, body: row.response_body };
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
  claim: IdempotencyClaim,
  operation: (tx: Queryable) => Promise<StoredResponse>,
): Promise<StoredResponse & { isReplay: boolean }> {
  return db.transaction(async (tx) => {
    const claimed = await tx.query<ClaimRow>(
      'SELECT * FROM idempotency_claim($1, $2, $3)',
      [claim.scope, claim.key, claim.requestHash],
      { preparedName: 'idempotency_claim' },
    );
    if (!claimed.rows[0]?.is_claimed) {
      return { ...storedAnswerOf(claim, claimed.rows[0]), isReplay: true };
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
      'SELECT idempotency_store($1, $2, $3, $4)',
      [claim.scope, claim.key, response.status, wireJson(response.body)],
      { preparedName: 'idempotency_store' },
    );
    return { ...response, isReplay: false };
  });
}

/** A finished answer stored under the key, or null when the key is new or still running. */
async function storedResponse(
  db: Queryable,
  claim: IdempotencyClaim,
): Promise<StoredResponse | null> {
  const found = await db.query<ClaimRow>(
    `SELECT request_hash, response_status, response_body FROM idempotency_keys
      WHERE scope = $1 AND key = $2 AND response_status <> 0`,
    [claim.scope, claim.key],
  );
  return found.rows[0] ? storedAnswerOf(claim, found.rows[0]) : null;
}

/** The request's Idempotency-Key header, or a refusal when it has none usable. */
function idempotencyKeyOf(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !idempotencyKeyPattern.test(key)) {
    throw new AppError('idempotency_key_required');
  }
  return key;
}

/**
 * A request to a money route without a usable key is refused before its body is checked
 * or anything else happens: the key's absence is the first thing its sender must fix.
 */
export function registerIdempotencyKeyCheck(app: FastifyInstance): void {
  // Added to the money routes alone, so no other request pays for the check.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.isIdempotent) return;
    const own = route.preValidation ?? [];
    route.preValidation = [
      (request, _reply, done) => {
        try {
          idempotencyKeyOf(request);
          done();
        } catch (error) {
          done(error as AppError);
        }
      },
      ...(Array.isArray(own) ? own : [own]),
    ];
  });
}

/** The request's claim: its Idempotency-Key header, checked, and the hash of its body. */
export function claimOf(request: FastifyRequest, scope: string): IdempotencyClaim {
  // A money route that forgot its declaration would escape the conformance tests: a bug.
  if (!request.routeOptions.config.isIdempotent) {
    throw new Error(`${request.routeOptions.url} answers idempotently without config.isIdempotent`);
  }
  const key = idempotencyKeyOf(request);
  // A step-up code (or passkey answer) is not part of the request's identity: a retry
  // with a fresh one still replays the first answer.
  const {
    stepUpCode: _stepUpCode,
    stepUpPasskey: _stepUpPasskey,
    ...identity
  } = (request.body ?? {}) as Record<string, unknown>;
  const body = request.body === undefined ? undefined : identity;
  // The path's ids are part of it too: the same key for another customer's deposit or
  // another loan is another request, not a replay of the first one's answer.
  const params = request.params as Record<string, unknown> | undefined;
  const hasParams = params !== undefined && Object.keys(params).length > 0;
  const requestHash = hashRequest(
    request.method,
    request.routeOptions.url ?? request.url,
    hasParams ? { params, body } : body,
  );
  return { scope, key, requestHash };
}

function hasStepUpCode(request: FastifyRequest): boolean {
  const body = request.body as { stepUpCode?: unknown; stepUpPasskey?: unknown } | undefined;
  const hasCode = typeof body?.stepUpCode === 'string' && body.stepUpCode !== '';
  return hasCode || (typeof body?.stepUpPasskey === 'object' && body.stepUpPasskey !== null);
}

type Answer = StoredResponse & { isReplay: boolean };

/** Refusals of the step-up code or of the pace, not of the request: never kept under its key. */
const codeRefusals: ReadonlySet<string> = new Set([
  'step_up_required',
  'wrong_code',
  'passkey_refused',
  'too_many_attempts',
  'rate_limited',
]);

/**
 * An answer's body as JSON carries it, to store: amounts (bigints in code) as their
 * strings of minor units, exactly as `minorUnitsSchema` writes them.
 */
export function wireJson(body: unknown): string {
  return JSON.stringify(body, (_key, value) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/**
 * A fresh or stored answer's body in the form the route's response schema for that status
 * serializes from (a stored one is JSON: its amounts are strings again), so replays are
 * checked and written by the same contract as first answers.
 */
function bodyForRoute(request: FastifyRequest, status: number, body: unknown): unknown {
  if (body === undefined) return body;
  const schemas = request.routeOptions.schema?.response as Record<number, unknown> | undefined;
  const schema = schemas?.[status];
  const wireBody: unknown = JSON.parse(wireJson(body));
  return schema instanceof z.core.$ZodType ? z.parse(schema, wireBody) : wireBody;
}

/** The answer, marked when it is a replay. */
function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.isReplay) reply.header('idempotent-replayed', 'true');
  return reply.status(answer.status).send(bodyForRoute(request, answer.status, answer.body));
}

/**
 * What both wrappers share: the claim, `prepare` run only for a key not answered yet,
 * `run` with what it prepared, and the reply (marked when it is a replay).
 *
 * `prepare` runs outside the transaction: checks whose side effects must outlive a
 * refusal (a wrong step-up code uses up a try) go there. A request carrying a step-up
 * code first looks for a finished answer, so a retry after success does not spend a try
 * on the code the first one used.
 */
async function replyOnce<Prepared>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  prepare: (() => Promise<Prepared>) | undefined,
  run: (claim: IdempotencyClaim, prepared: Prepared) => Promise<Answer>,
): Promise<FastifyReply> {
  const claim = claimOf(request, scope);
  const { db } = request.server;
  const send = (answer: Answer) => sendAnswer(request, reply, answer);
  const earlier = prepare && hasStepUpCode(request) ? await storedResponse(db, claim) : null;
  if (earlier) return send({ ...earlier, isReplay: true });
  let prepared: Prepared;
  try {
    prepared = prepare ? await prepare() : (undefined as Prepared);
  } catch (error) {
    return send(await refusalAnswer(db, claim, error));
  }
  return send(await run(claim, prepared));
}

/**
 * The answer to a request refused before its operation ran or by its one statement. A
 * refusal of the request itself (frozen, limit, balance...) is its answer and is kept
 * under the key, as one from the operation would be; a wrong or missing code is not, so
 * the same request can follow with the right one. Either way, a twin request with this
 * key may have finished meanwhile (and spent the code): its answer is this one's too.
 */
async function refusalAnswer(
  db: Database,
  claim: IdempotencyClaim,
  error: unknown,
): Promise<Answer> {
  if (!(error instanceof AppError)) throw error;
  if (!codeRefusals.has(error.code)) return runIdempotent(db, claim, () => Promise.reject(error));
  const finished = await storedResponse(db, claim);
  if (finished) return { ...finished, isReplay: true };
  throw error;
}

/**
 * The route-side wrapper: reads and checks the Idempotency-Key header, runs the operation
 * once in a transaction with the key's claim and answers with the stored status and body.
 */
export function replyIdempotent<Prepared = undefined>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  operation: (tx: Queryable, prepared: Prepared) => Promise<StoredResponse>,
  prepare?: () => Promise<Prepared>,
): Promise<FastifyReply> {
  return replyOnce(request, reply, scope, prepare, (claim, prepared) =>
    runIdempotent(request.server.db, claim, (tx) => operation(tx, prepared)),
  );
}

/**
 * The same for an operation that is one database statement claiming the key and storing
 * its answer itself (Quick Pay's quick_pay function), for the hottest route: no
 * transaction is held open across round trips. It answers with idempotency_claim's row.
 * When it refuses with an AppError nothing of it stays, so the refusal is stored here
 * (`refusalAnswer`), unless a twin request has answered meanwhile.
 */
export function replyIdempotentInOneStatement<Prepared>(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  operation: (claim: IdempotencyClaim, prepared: Prepared) => Promise<ClaimRow>,
  prepare: () => Promise<Prepared>,
): Promise<FastifyReply> {
  return replyOnce(request, reply, scope, prepare, async (claim, prepared) => {
    let row: ClaimRow;
    try {
      row = await operation(claim, prepared);
    } catch (error) {
      return refusalAnswer(request.server.db, claim, error);
    }
    return rowAnswer(claim, row);
  });
}

/** The answer idempotency_claim's row gives: this request's own, or the key's earlier one. */
function rowAnswer(claim: IdempotencyClaim, row: ClaimRow): Answer {
  if (row.is_claimed)
    return { status: row.response_status, body: row.response_body, isReplay: false };
  return { ...storedAnswerOf(claim, row), isReplay: true };
}

/**
 * What a one-statement operation that also reads its caller's session did (ADR 057): its
 * row, the refusal it raised (caught in the statement, which committed the session's
 * spend), or nothing, when the session turned out to be someone else's than the statement
 * was built for.
 */
export type SessionStatementOutcome = { row: ClaimRow } | { refusal: unknown } | { isNotRun: true };

/**
 * `replyIdempotentInOneStatement` for an operation whose one statement reads the caller's
 * session too (platform/access.ts, `isSessionReadByHandler`): `scope` is the customer the
 * statement was built for, which it checks. A refusal of the session itself is thrown by
 * `statement`, before anything is read or stored under the key; the caller is told it as
 * on any route. False when the statement did not run the operation: the caller takes the
 * ordinary way with the session it read. (A boolean and not the reply: a reply is
 * thenable, so awaiting one that was sent resolves to nothing.)
 */
export async function replyIdempotentInSessionStatement(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  statement: (claim: IdempotencyClaim) => Promise<SessionStatementOutcome>,
): Promise<boolean> {
  const claim = claimOf(request, scope);
  const outcome = await statement(claim);
  if ('isNotRun' in outcome) return false;
  const answer =
    'row' in outcome
      ? rowAnswer(claim, outcome.row)
      : await refusalAnswer(request.server.db, claim, outcome.refusal);
  sendAnswer(request, reply, answer);
  return true;
}
