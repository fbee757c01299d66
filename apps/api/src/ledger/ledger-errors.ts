import { AppError } from '../platform/app-error.ts';
import { AssertionError } from '../platform/assert.ts';

// The SQLSTATEs raised by the ledger functions in drizzle/0001_ledger_functions.sql.
const appErrorBySqlState = {
  CF001: 'insufficient_funds',
  CF002: 'hold_not_active',
  CF003: 'not_found',
  CF004: 'not_found',
} as const;

/** Turns a ledger function's SQL error into an AppError, or an AssertionError for a bug. */
export function toLedgerError(error: unknown): unknown {
  const sqlState = (error as { code?: unknown } | null)?.code;
  if (typeof sqlState !== 'string') return error;
  if (sqlState in appErrorBySqlState) {
    return new AppError(appErrorBySqlState[sqlState as keyof typeof appErrorBySqlState]);
  }
  if (sqlState === 'CF900' || sqlState === 'CF901') {
    return new AssertionError(`ledger: ${(error as Error).message}`);
  }
  return error;
}
