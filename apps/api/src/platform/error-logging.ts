/**
 * How an error is written to the log (the `err` serializer of every logger in the app).
 * A failed statement's error carries what it was given: PGlite attaches the statement and
 * its parameters (`query`, `params`), and PostgreSQL's DETAIL and CONTEXT quote the row or
 * the value (`Key (id_number)=(P1234567) already exists.`). Those are customers' ID
 * numbers, addresses and dates of birth, so a database error is logged with only the
 * fields that name what failed (SQLSTATE, constraint, table, column, routine), and a data
 * exception's message loses the value it quotes. Other errors are logged whole.
 */

/** The fields of a PostgreSQL error (both drivers) that name what failed, not the data. */
const databaseErrorFields = [
  'name',
  'code',
  'severity',
  'hint',
  'position',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

const sqlStatePattern = /^[0-9A-Z]{5}$/;

type DatabaseError = Error & { code: string; severity: string };

function isDatabaseError(error: Error): error is DatabaseError {
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && sqlStatePattern.test(code) && typeof severity === 'string';
}

/**
 * Class 22 (data exception) messages quote the value that failed, as in
 * `date/time field value out of range: "0000-01-01"`: the quoted part goes.
 */
function withoutQuotedValue(text: string, sqlState: string): string {
  return sqlState.startsWith('22') ? text.replaceAll(/"[^"]*"/g, '"…"') : text;
}

const nestingDepthMax = 5;

/** What the log holds of an error: the shape pino's own serializer gives. */
export type LoggedError = { type: string; message: string; stack: string; [key: string]: unknown };

/** The error as the log shows it (the logger's `err` serializer): no value a statement carried. */
export function serializeErrorForLog(error: Error, depth = 0): LoggedError {
  const logged: LoggedError = { type: error.constructor.name, message: '', stack: '' };
  if (isDatabaseError(error)) {
    for (const field of databaseErrorFields) {
      const value = (error as unknown as Record<string, unknown>)[field];
      if (value !== undefined) logged[field] = value;
    }
    logged.message = withoutQuotedValue(error.message, error.code);
    logged.stack = (error.stack ?? '').replace(error.message, logged.message);
  } else {
    Object.assign(logged, error);
    logged.message = error.message;
    logged.stack = error.stack ?? '';
  }
  const nested = (inner: unknown) => {
    if (!(inner instanceof Error)) return inner;
    return depth < nestingDepthMax ? serializeErrorForLog(inner, depth + 1) : '[nested too deep]';
  };
  if (error.cause !== undefined) logged.cause = nested(error.cause);
  if (error instanceof AggregateError) logged.errors = error.errors.map(nested);
  return logged;
}
