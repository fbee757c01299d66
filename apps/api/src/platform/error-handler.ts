import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorBody, type ErrorCode, errorCodes } from '@coffer/contracts/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isTransactionConflict } from '../db/sql-errors.ts';
import { settleSession } from './access.ts';
import { AppError } from './app-error.ts';
import { translateText } from './i18n.ts';
import { languageOf } from './languages.ts';
import { zodMessageIn } from './zod-messages.ts';

/**
 * Answers with the one error body. The code is the stable part; the message and the
 * fields' messages are written in English and translated here, once, into the request's
 * language (ADR 055), wherever in the code they were thrown.
 */
export function sendError(
  reply: FastifyReply,
  code: ErrorCode,
  options: { message?: string; fields?: Record<string, string> } = {},
) {
  const language = languageOf(reply.request);
  const translate = (text: string) => translateText(language, text);
  const body: ErrorBody = {
    error: {
      code,
      message: translate(options.message ?? errorCodes[code].message),
      ...(options.fields
        ? {
            fields: Object.fromEntries(
              Object.entries(options.fields).map(([name, text]) => [name, translate(text)]),
            ),
          }
        : {}),
    },
  };
  return reply.status(errorCodes[code].status).send(body);
}

/**
 * PostgreSQL's data exceptions (class 22) for a value it cannot take: text with a NUL
 * (22021) or a character the encoding lacks (22P05), text too long for its column (22001),
 * a number out of range (22003), a malformed value (22P02, 22007) or a date outside the
 * calendar (22008: year 0). The contract's schemas refuse these first, so one arriving
 * here is a field that missed its schema: a bug, logged as one, but the person's input is
 * still what was wrong, so they get a 400 rather than a 500. Other data exceptions
 * (division by zero, a null where none may be) are our arithmetic, not their input: 500.
 */
const invalidTextSqlStates = new Set(['22021', '22P05']);
const invalidValueSqlStates = new Set(['22001', '22003', '22007', '22008', '22P02']);

function sqlStateOf(error: unknown): string | null {
  const sqlState = (error as { code?: unknown } | null)?.code;
  return typeof sqlState === 'string' ? sqlState : null;
}

/**
 * While the database has no primary (a failover takes Patroni's leader ttl, 30 s by
 * default, and a few more for the promotion) requests are refused and may be sent again.
 */
export const databaseRetryAfterSeconds = 5;
const databaseUnavailableMessage =
  'Coffer cannot reach its database for a moment. Please try again shortly.';

/** A transaction rolled back for colliding with another is worth sending again at once. */
const conflictRetryAfterSeconds = 1;
const transactionConflictMessage =
  'Coffer was busy with another change to the same records, and nothing was done. Please try again.';

export const invalidTextMessage =
  'Some of the text contains characters that cannot be stored. Remove invisible or broken characters and try again.';

/**
 * Fastify's own refusals a client can cause, by Fastify's error code: the stable code of
 * the body and a message of ours, translated like every other (ADR 055), as Fastify's
 * English ("Body is not valid JSON but content-type is set to 'application/json'") is in no
 * catalog. No message: the code's own.
 */
const fastifyErrorMessages: Partial<Record<string, { code: ErrorCode; message?: string }>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'validation_failed',
    message: 'The body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'validation_failed',
    message: 'The body is empty, but the request says it is JSON.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'malformed_request',
    message: 'The body is not as long as the request says it is.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type' },
};

// Other client errors by status: the rate limiter's, and the file server's (@fastify/static:
// the API reference's files, the web build), which refuses a path that climbs out of its
// root (`%2e%2e/`) or names a dotfile with a 403: that names no file it serves, so it is a
// 404 like any other missing file.
const codeByClientStatus: Partial<Record<number, ErrorCode>> = {
  403: 'not_found',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/**
 * A client error (4xx) of Fastify or a plugin: its code and a message of ours. One we do
 * not know (a plugin's new refusal) is a request we could not read, logged so it gets its
 * own message.
 */
function answerClientFailure(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const known = fastifyErrorMessages[error.code];
  if (known) return sendError(reply, known.code, known.message ? { message: known.message } : {});
  const mappedCode = codeByClientStatus[error.statusCode ?? 0];
  if (mappedCode) return sendError(reply, mappedCode);
  request.log.warn({ err: error }, 'a client error without a message of ours');
  return sendError(reply, 'validation_failed', { message: errorCodes.malformed_request.message });
}

/**
 * Turns every failure into the one JSON error body. Expected failures carry their code;
 * bad input is a 400 with the fields that failed; anything else is a bug: logged in full,
 * answered with a 500 that says nothing about the internals.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) =>
    answerError((await accessRefusalFirst(request)) ?? error, request, reply),
  );
}

/**
 * A request whose route reads the session in its handler's statement (ADR 057) and failed
 * before that statement ran (bad input, no Idempotency-Key): its session is read now, so a
 * visitor, a revoked session or a staff member is refused as on any other route, before
 * anything about the input. Null when there is nothing to refuse.
 */
async function accessRefusalFirst(request: FastifyRequest): Promise<FastifyError | null> {
  if (!request.sessionGuess) return null;
  try {
    await settleSession(request);
    return null;
  } catch (refusal) {
    return refusal as FastifyError;
  }
}

function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return sendError(reply, error.code, {
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    const language = languageOf(request);
    for (const issue of error.validation) {
      const name = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      fields[name] ??= zodMessageIn(language, issue) ?? issue.message ?? 'Invalid value';
    }
    // The first field's own words say more than a generic line ("Please fill in all fields").
    const firstMessage = Object.values(fields)[0];
    return sendError(reply, 'validation_failed', {
      fields,
      ...(firstMessage ? { message: firstMessage } : {}),
    });
  }
  const sqlState = sqlStateOf(error);
  if (sqlState && (invalidTextSqlStates.has(sqlState) || invalidValueSqlStates.has(sqlState))) {
    request.log.error({ err: error }, 'a value refused by the database passed its schema (a bug)');
    return sendError(
      reply,
      'validation_failed',
      invalidTextSqlStates.has(sqlState) ? { message: invalidTextMessage } : {},
    );
  }
  if (isDatabaseUnavailable(error)) {
    // Not a bug: nothing of the request was done, or it was committed and the same
    // Idempotency-Key answers it again once the database is back.
    request.log.warn({ err: error }, 'the database is unavailable');
    reply.header('retry-after', String(databaseRetryAfterSeconds));
    return sendError(reply, 'unavailable', { message: databaseUnavailableMessage });
  }
  if (isTransactionConflict(error)) {
    // Rolled back whole; the request may be sent again. A deadlock still means two code
    // paths lock in different orders: logged as an error, to be found and fixed.
    request.log.error({ err: error }, 'a transaction collided with another and was rolled back');
    reply.header('retry-after', String(conflictRetryAfterSeconds));
    return sendError(reply, 'unavailable', { message: transactionConflictMessage });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return answerClientFailure(error, request, reply);
  request.log.error({ err: error }, 'unhandled error');
  return sendError(reply, 'internal');
}

/**
 * The router's own refusals, before any route or hook runs, in the one error shape: a
 * malformed percent-escape in the path is bad input; a path parameter longer than any id
 * (Fastify's 100-character limit) names nothing that exists.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendError(reply, 'not_found');
    return;
  }
  sendError(reply, 'validation_failed', { message: 'The address of this request is not valid.' });
}

// The HTTP parser's refusals (Node's `clientError`), by Node's error code.
const codeByParserError: Partial<Record<string, ErrorCode>> = {
  HPE_HEADER_OVERFLOW: 'request_header_too_large',
  ERR_HTTP_REQUEST_TIMEOUT: 'request_timeout',
};

/**
 * Answers a request the HTTP parser refused before Fastify saw it (request line and
 * headers over Node's 16 KB, a malformed request, one that never arrived in full) with
 * the one JSON error body, as Fastify's own handler does with a body of its own shape, and
 * closes the connection. For Fastify's `clientErrorHandler` option.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = codeByParserError[error.code ?? ''] ?? 'malformed_request';
  const { status, message } = errorCodes[code];
  const body = JSON.stringify({ error: { code, message } } satisfies ErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
