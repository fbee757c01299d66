import type { ErrorCode } from '@coffer/contracts/errors';
import { z } from 'zod/mini';
import { AppError } from '../platform/app-error.ts';
import { AssertionError } from '../platform/assert.ts';

/**
 * Every refusal the SQL functions (db/functions/*.sql) raise, by SQLSTATE and, where one
 * SQLSTATE carries several refusals, the machine code in its HINT: `CF101/level_too_low`.
 * The MESSAGE is for people reading logs; code never reads it. sql-errors.test.ts fails
 * when a function raises a pair this table does not name.
 */
export const errorCodeBySqlError = {
  // The ledger (ledger_*): one SQLSTATE a refusal.
  CF001: 'insufficient_funds',
  CF002: 'hold_not_active',
  CF003: 'not_found',
  CF004: 'not_found',
  // A line on a closed customer's wallet (ADR 050).
  CF005: 'account_closed',
  // money_out_lock: the sender's checks, in PRODUCT.md's order.
  'CF101/not_found': 'not_found',
  'CF101/account_frozen': 'account_frozen',
  'CF101/email_not_verified': 'email_not_verified',
  'CF101/level_too_low': 'level_too_low',
  'CF101/daily_limit_exceeded': 'daily_limit_exceeded',
  // step_up_spend: the code was spent meanwhile.
  'CF102/wrong_code': 'wrong_code',
  // quick_pay: the recipient. Every refused look-up answers the same (SECURITY.md), and
  // none is answered once the customer's look-ups are used up.
  'CF103/too_many_attempts': 'too_many_attempts',
  'CF103/recipient_not_found': 'recipient_refused',
  'CF103/currency_mismatch': 'recipient_refused',
  'CF103/own_account': 'own_account',
  // card_authorize: the processor sent one authorization id for two cards at once.
  'CF110/authorization_conflict': 'processor_id_reused',
} as const satisfies Record<string, ErrorCode>;

export type SqlErrorKey = keyof typeof errorCodeBySqlError;

/** SQLSTATEs that mean a bug (a broken invariant, an append-only table written), not a refusal. */
export const bugSqlStates: readonly string[] = ['CF900', 'CF901'];

/**
 * A refusal a SQL function raised: its key in the table, its ErrorCode and its DETAIL as
 * raised (JSON for the money-out functions, an account id for the ledger's).
 */
export type SqlRefusal = { key: SqlErrorKey; code: ErrorCode; detail: string | null };

const raisedSchema = z.object({
  code: z.string(),
  message: z.nullish(z.string()),
  hint: z.nullish(z.string()),
  detail: z.nullish(z.string()),
});

function isSqlErrorKey(key: string): key is SqlErrorKey {
  return Object.hasOwn(errorCodeBySqlError, key);
}

/**
 * Turns a SQL function's error into an AppError (`describe` may word it for its context,
 * or leave it to the code's own message) or an AssertionError for a bug; any other error
 * is passed on untouched.
 */
export function fromSqlError(
  error: unknown,
  describe: (refusal: SqlRefusal) => AppError | undefined = () => undefined,
): unknown {
  const raised = raisedSchema.safeParse(error);
  if (!raised.success) return error;
  const { code: sqlState, hint, message, detail } = raised.data;
  if (bugSqlStates.includes(sqlState)) return new AssertionError(`database: ${message}`);
  const key = hint ? `${sqlState}/${hint}` : sqlState;
  if (!isSqlErrorKey(key)) return error;
  const code = errorCodeBySqlError[key];
  return describe({ key, code, detail: detail ?? null }) ?? new AppError(code);
}

/**
 * SQLSTATEs of a database that is going away or not (yet) the primary: a connection
 * exception (class 08), a server shut down or crashed under the statement (57P01, 57P02),
 * one still starting (57P03), and a write sent to a standby (25006), as happens for a
 * moment when a failover moves the primary (docs/decisions/037).
 */
const unavailableSqlStates = new Set(['57P01', '57P02', '57P03', '25006']);

/**
 * What node-postgres says when it loses or cannot make a connection. These errors carry
 * no SQLSTATE and no errno, so their message is all there is to tell them by.
 */
const lostConnectionMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];
const unreachableErrnos = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

/**
 * Whether an error means the database cannot be reached or written for now (a failover,
 * a restart) rather than a bug: the request may be sent again once a primary is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || unavailableSqlStates.has(code) || unreachableErrnos.has(code)) {
      return true;
    }
  }
  return lostConnectionMessages.some((message) => error.message.startsWith(message));
}

/**
 * SQLSTATEs of a transaction PostgreSQL rolled back because it collided with another: a
 * deadlock (40P01: two transactions took the same locks in different orders) or a
 * serialization failure (40001). Nothing of it was committed, its Idempotency-Key claim
 * included, so the same request may simply be sent again.
 */
const transactionConflictSqlStates = new Set(['40P01', '40001']);

/** Whether PostgreSQL rolled the request's transaction back for colliding with another. */
export function isTransactionConflict(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && transactionConflictSqlStates.has(code);
}
