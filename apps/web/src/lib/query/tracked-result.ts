// Which parts of a query's state a component reads, so that a change it does not read
// renders nothing again (as TanStack Query's tracked results did).
import type { QueryState } from './query-cache.ts';

/** What a query's state says of how its fetch is going, rather than what it brought. */
export type ProgressField = 'isFetching' | 'isFetchingNextPage' | 'failureCount';

/** The result's fields that read each of them. */
const progressFieldsOfResult: Record<string, ProgressField> = {
  isFetching: 'isFetching',
  isLoading: 'isFetching',
  isFetchingNextPage: 'isFetchingNextPage',
  failureCount: 'failureCount',
};

/**
 * Whether a component that has read `progressRead` would show `next` as it shows `last`:
 * the same answer, and no change in what it read of the fetch's progress. A background
 * refetch that brings the same answer (structurally shared: the same objects) then renders
 * nothing again, as TanStack Query's tracked results did: on a server-rendered page the
 * live feed's catch-up refetches everything right after the takeover, and every table on
 * the page was rendered twice more for it, in React's synchronous lane.
 */
export function isSameForReader(
  last: QueryState,
  next: QueryState,
  progressRead: ReadonlySet<ProgressField>,
): boolean {
  if (last === next) return true;
  if (last.data !== next.data || last.status !== next.status || last.error !== next.error) {
    return false;
  }
  for (const field of progressRead) if (last[field] !== next[field]) return false;
  return true;
}

/** `result`, noting in `progressRead` which of the fetch's progress fields are read. */
export function trackProgress<Result extends object>(
  result: Result,
  progressRead: Set<ProgressField>,
): Result {
  const tracked = { ...result };
  for (const [key, field] of Object.entries(progressFieldsOfResult)) {
    if (!(key in result)) continue;
    const value = (result as Record<string, unknown>)[key];
    Object.defineProperty(tracked, key, {
      enumerable: true,
      get() {
        progressRead.add(field);
        return value;
      },
    });
  }
  return tracked;
}
