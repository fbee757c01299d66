import { type StatementFormat, statementSchema } from '@coffer/contracts/statements';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';

/** A statement's period as the API takes it: a month, or the first and last day. */
export type StatementRange = { month: string } | { from: string; to: string };

/** The API address of a statement; the CSV and PDF ones are plain links the browser downloads. */
export function statementUrl(
  range: StatementRange,
  format: StatementFormat,
  walletId: string | null = null,
): string {
  const query = { ...range, format, ...(walletId ? { walletId } : {}) };
  return `/api/v1/statements?${new URLSearchParams(query).toString()}`;
}

/**
 * The on-screen preview. Its key starts with 'wallet', so a live `wallet` event (money
 * moved) refreshes it like the balance.
 */
export function statementQueryOptions(range: StatementRange, walletId: string | null = null) {
  return queryOptions({
    queryKey: ['wallet', 'statement', range, walletId],
    queryFn: ({ signal }) =>
      apiRequest({ path: statementUrl(range, 'json', walletId), schema: statementSchema, signal }),
    // Changing the period keeps the last preview on screen until the new one arrives.
    placeholderData: keepPreviousData,
  });
}
