import { describe, expect, it } from 'vitest';
import type { QueryState } from './query-cache.ts';
import { isSameForReader, type ProgressField, trackProgress } from './tracked-result.ts';

const answer = { items: ['a', 'b'] };
const settled: QueryState = {
  data: answer,
  error: null,
  status: 'success',
  isFetching: false,
  isFetchingNextPage: false,
  failureCount: 0,
  dataUpdatedAt: 1,
  isInvalidated: false,
};
const refetching: QueryState = { ...settled, isFetching: true, isInvalidated: true };
const refetched: QueryState = { ...settled, dataUpdatedAt: 2 };

describe('a query result that notes what is read of it', () => {
  it('notes a progress field only when the component reads it', () => {
    const progressRead = new Set<ProgressField>();
    const result = trackProgress(
      { data: answer, isFetching: true, isLoading: false, failureCount: 0 },
      progressRead,
    );
    expect(result.data).toBe(answer);
    expect(progressRead).toEqual(new Set());
    expect(result.isLoading).toBe(false);
    expect(progressRead).toEqual(new Set(['isFetching']));
    expect(result.failureCount).toBe(0);
    expect(progressRead).toEqual(new Set(['isFetching', 'failureCount']));
  });

  it('leaves fields the result does not have out', () => {
    const result = trackProgress({ isFetchingNextPage: false }, new Set());
    expect(Object.keys(result)).toEqual(['isFetchingNextPage']);
  });
});

describe('whether a component would show a new state as it shows the last', () => {
  it('ignores a refetch that brings the same answer, for a component that reads only the answer', () => {
    expect(isSameForReader(settled, refetching, new Set())).toBe(true);
    expect(isSameForReader(refetching, refetched, new Set())).toBe(true);
  });

  it('shows the refetch to a component that reads whether it is fetching', () => {
    expect(isSameForReader(settled, refetching, new Set(['isFetching']))).toBe(false);
    expect(isSameForReader(settled, refetching, new Set(['isFetchingNextPage']))).toBe(true);
  });

  it('always shows a new answer, an error or a new status', () => {
    expect(isSameForReader(settled, { ...settled, data: { items: ['a'] } }, new Set())).toBe(false);
    const failure = new Error('down');
    expect(
      isSameForReader(settled, { ...settled, status: 'error', error: failure }, new Set()),
    ).toBe(false);
  });
});
