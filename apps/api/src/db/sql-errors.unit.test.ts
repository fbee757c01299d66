import { errorCodes } from '@coffer/contracts/errors';
import { describe, expect, it } from 'vitest';
import { raisedSqlErrors } from '../../test/sql-functions.ts';
import { AppError } from '../platform/app-error.ts';
import { AssertionError } from '../platform/assert.ts';
import {
  bugSqlStates,
  errorCodeBySqlError,
  fromSqlError,
  isDatabaseUnavailable,
  isTransactionConflict,
} from './sql-errors.ts';

const raised = raisedSqlErrors();
const refusals = raised.filter(({ sqlState }) => !bugSqlStates.includes(sqlState));
const keyOf = ({ sqlState, hint }: { sqlState: string; hint: string | null }) =>
  hint ? `${sqlState}/${hint}` : sqlState;

describe('the SQL error table', () => {
  it('finds the RAISEs of the function files', () => {
    expect(refusals.length).toBeGreaterThanOrEqual(Object.keys(errorCodeBySqlError).length);
  });

  it.each(refusals.map((error) => [error.functionName, keyOf(error)]))(
    '%s raises %s, which maps to an error code',
    (_functionName, key) => {
      expect(Object.keys(errorCodeBySqlError)).toContain(key);
      const code = errorCodeBySqlError[key as keyof typeof errorCodeBySqlError];
      expect(Object.keys(errorCodes)).toContain(code);
    },
  );

  it('names no pair that no function raises', () => {
    expect(Object.keys(errorCodeBySqlError).sort()).toEqual(
      [...new Set(refusals.map(keyOf))].sort(),
    );
  });

  it('reads the code from SQLSTATE and HINT, never from MESSAGE', () => {
    const error = fromSqlError({ code: 'CF101', message: 'level_too_low', hint: 'account_frozen' });
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('account_frozen');
  });

  it('turns a bug SQLSTATE into an AssertionError and passes other errors on', () => {
    expect(fromSqlError({ code: 'CF900', message: 'broken' })).toBeInstanceOf(AssertionError);
    const other = new Error('connection lost');
    expect(fromSqlError(other)).toBe(other);
    const unheardOf = { code: 'CF101', hint: 'unheard_of' };
    expect(fromSqlError(unheardOf)).toBe(unheardOf);
  });
});

describe('isDatabaseUnavailable', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('knows a lost connection, a refused one, a crashed server and a write to a standby', () => {
    for (const error of [
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      withCode('connect ECONNREFUSED 127.0.0.1:5000', 'ECONNREFUSED'),
      withCode('terminating connection due to unexpected postmaster exit', '57P01'),
      withCode('cannot execute INSERT in a read-only transaction', '25006'),
      withCode('connection failure', '08006'),
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it('leaves refusals, constraint violations and bugs to their own handling', () => {
    for (const error of [
      withCode('insufficient funds', 'CF001'),
      withCode('duplicate key value violates unique constraint', '23505'),
      new Error('entry must balance'),
      'Connection terminated',
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});

describe('isTransactionConflict', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('knows a deadlock and a serialization failure, and nothing else', () => {
    expect(isTransactionConflict(withCode('deadlock detected', '40P01'))).toBe(true);
    expect(isTransactionConflict(withCode('could not serialize access', '40001'))).toBe(true);
    for (const error of [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('terminating connection due to unexpected postmaster exit', '57P01'),
      withCode('insufficient funds', 'CF001'),
      new Error('deadlock detected'),
    ]) {
      expect(isTransactionConflict(error)).toBe(false);
    }
  });
});
