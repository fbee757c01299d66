import { type ErrorCode, errorBodySchema, errorCodes } from '@coffer/contracts/errors';
import { type TextTranslator, textTranslator } from '@coffer/contracts/message-text';
import { type I18n, i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod/mini';

/** Failures that happen in the browser before or instead of an API answer. */
export type ClientErrorCode = 'network_error' | 'timeout' | 'invalid_response';

const clientErrorMessages: Record<ClientErrorCode, MessageDescriptor | string> = {
  network_error: msg`Coffer could not be reached. Check your connection and try again.`,
  timeout: msg`Coffer took too long to answer. Please try again.`,
  invalid_response: errorCodes.internal.message,
};

/**
 * A contract's English message (docs/decisions/055: the English is its id) in the page's
 * language when a loaded catalog has it, its values put back in where it was written from a
 * template ("Enter a valid {coin} address"), else as written: asking Lingui for an id no
 * catalog has would warn on the console and interpolate nothing.
 */
export function contractText(english: string, i18nInUse: I18n = i18n): string {
  let translator = translators.get(i18nInUse);
  if (!translator) {
    translator = textTranslator(Object.keys(i18nInUse.messages), (id, values) =>
      i18nInUse._(id, values),
    );
    translators.set(i18nInUse, translator);
    // Made anew after a catalog load or a language change, which Lingui announces.
    i18nInUse.on('change', () => translators.delete(i18nInUse));
  }
  return translator(english);
}
/** Per I18n: the browser's one, and the server's one per language (its renders pass theirs). */
const translators = new WeakMap<I18n, TextTranslator>();

function clientErrorText(code: ClientErrorCode): string {
  const message = clientErrorMessages[code];
  return typeof message === 'string' ? contractText(message) : i18n._(message);
}

/** Every failed API call becomes one of these; `message` is fit to show to the user. */
export class ApiError extends Error {
  override name = 'ApiError';
  /** HTTP status, or 0 when no answer arrived. */
  readonly status: number;
  readonly code: ErrorCode | ClientErrorCode;
  /** Per-field messages for forms, keyed by field name. */
  readonly fields: Readonly<Record<string, string>>;

  constructor(options: {
    status: number;
    code: ErrorCode | ClientErrorCode;
    message: string;
    fields?: Record<string, string>;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.fields = options.fields ?? {};
  }

  /** A 4xx answer will not change by asking again; a network failure or a 5xx might. */
  get isRetryable(): boolean {
    return this.status === 0 || this.status >= 500 || this.code === 'rate_limited';
  }
}

export function clientError(code: ClientErrorCode, status: number, cause?: unknown): ApiError {
  // In the browser only, where the app's one I18n is the page's language.
  return new ApiError({ status, code, message: clientErrorText(code), cause });
}

export const requestTimeoutMs = 15_000;

/** For answers with no body (204, or 202 without one): accepts anything and returns nothing. */
export const noContentSchema: z.ZodMiniType<void> = z.pipe(
  z.unknown(),
  z.transform(() => undefined),
);

/** An API answer as a page reads it: the HTTP status and the JSON body. */
export type ApiAnswer = { status: number; json: unknown };

/**
 * Where a GET is answered before the network is asked: in the browser, the answers the
 * server rendered the page with (lib/prerendered-answers.ts); on the server, the API itself
 * (src/app-server.tsx). `undefined` sends the request over the network.
 */
export type AnswerSource = (path: string) => Promise<ApiAnswer> | undefined;

let answerSource: AnswerSource = () => undefined;

export function setAnswerSource(source: AnswerSource): void {
  answerSource = source;
}

type RequestOptions<T> = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the same origin, e.g. `/api/v1/health`. */
  path: string;
  /** Parses (and strips) the success body; the contract's response schema. */
  schema: z.ZodMiniType<T>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/**
 * Calls the Coffer API and returns the parsed body, or throws an ApiError carrying the
 * server's `{ error: { code, message, fields } }` answer.
 */
export async function apiRequest<T>(options: RequestOptions<T>): Promise<T> {
  const method = options.method ?? 'GET';
  const answer = (method === 'GET' && answerSource(options.path)) || fetchAnswer(options);
  return parseAnswer(await answer, options.schema);
}

/** An answer's body parsed by `schema`, or the ApiError it carries (also for XHR uploads). */
export function parseAnswer<T>({ status, json }: ApiAnswer, schema: z.ZodMiniType<T>): T {
  if (status === 0) throw clientError('network_error', 0);
  if (status < 200 || status > 299) {
    const parsed = errorBodySchema.safeParse(json);
    if (!parsed.success) throw clientError('invalid_response', status, json);
    const { code, message, fields } = parsed.data.error;
    throw new ApiError({ status, code, message, fields });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw clientError('invalid_response', status, parsed.error);
  return parsed.data;
}

async function fetchAnswer(options: RequestOptions<unknown>): Promise<ApiAnswer> {
  const timeoutSignal = AbortSignal.timeout(requestTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeoutSignal]) : timeoutSignal;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(options.path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
  } catch (error) {
    // The caller's own abort (a query that is no longer needed) is not an API failure.
    if (options.signal?.aborted) throw error;
    if (timeoutSignal.aborted) throw clientError('timeout', 0, error);
    throw clientError('network_error', 0, error);
  }
  const json: unknown = await response.json().catch(() => undefined);
  return { status: response.status, json };
}

/** The message to show for any error a query or mutation produced. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : contractText(errorCodes.internal.message);
}
