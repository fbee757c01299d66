import { describe, expect, it } from 'vitest';
import { hashQueryKey, matchesQueryKey, replaceEqualDeep } from './query-key.ts';

describe('query keys', () => {
  it('hash alike when equal in structure, whatever the order of an object’s properties', () => {
    expect(hashQueryKey(['wallet', 'statement', { from: '2026-01-01', to: '2026-01-31' }])).toBe(
      hashQueryKey(['wallet', 'statement', { to: '2026-01-31', from: '2026-01-01' }]),
    );
    expect(hashQueryKey(['admin', 'users', 'list', ''])).not.toBe(
      hashQueryKey(['admin', 'users', 'list', 'ann']),
    );
    expect(hashQueryKey(['a', 'b'])).not.toBe(hashQueryKey(['b', 'a']));
    expect(hashQueryKey(['a', 1])).not.toBe(hashQueryKey(['a', '1']));
  });

  it('name every query their key starts, item by item', () => {
    expect(matchesQueryKey(['wallet', 'transactions'], ['wallet'])).toBe(true);
    expect(matchesQueryKey(['wallet', 'statement', { month: '2026-11' }], ['wallet'])).toBe(true);
    expect(matchesQueryKey(['wallet'], ['wallet'])).toBe(true);
    expect(matchesQueryKey(['auth', 'me'], ['auth', 'me'])).toBe(true);
    expect(matchesQueryKey(['support', 'unread'], ['support', 'unread'])).toBe(true);
    expect(matchesQueryKey(['support', 'thread'], ['support', 'unread'])).toBe(false);
    expect(matchesQueryKey(['wallets'], ['wallet'])).toBe(false);
    expect(matchesQueryKey(['transfers', 'wallet'], ['wallet'])).toBe(false);
    expect(matchesQueryKey(['wallet'], ['wallet', 'transactions'])).toBe(false);
    expect(
      matchesQueryKey(
        ['wallet', 'statement', { month: '2026-11' }],
        ['wallet', 'statement', { month: '2026-10' }],
      ),
    ).toBe(false);
  });
});

describe('structural sharing', () => {
  it('keeps the previous answer when the new one is equal', () => {
    const previous = { items: [{ id: 1 }, { id: 2 }], nextCursor: null };
    const next = structuredClone(previous);
    expect(replaceEqualDeep(previous, next)).toBe(previous);
  });

  it('gives a changed row a new object and keeps the unchanged rows', () => {
    const previous = { items: [{ id: 1, amount: '1.00' }, { id: 2 }], nextCursor: 'a' };
    const next = { items: [{ id: 1, amount: '2.00' }, { id: 2 }], nextCursor: 'a' };
    const shared = replaceEqualDeep(previous, next);
    expect(shared).not.toBe(previous);
    expect(shared).toEqual(next);
    expect(shared.items).not.toBe(previous.items);
    expect(shared.items[0]).not.toBe(previous.items[0]);
    expect(shared.items[1]).toBe(previous.items[1]);
  });

  it('sees added and removed properties and items', () => {
    const previous = { a: 1, b: [1, 2] };
    expect(replaceEqualDeep(previous, { a: 1 })).toEqual({ a: 1 });
    expect(replaceEqualDeep(previous, { a: 1, b: [1, 2], c: undefined })).not.toBe(previous);
    expect(replaceEqualDeep(previous, { a: 1, b: [1, 2, 3] }).b).toEqual([1, 2, 3]);
    expect(replaceEqualDeep(null, { a: 1 })).toEqual({ a: 1 });
    const date = new Date(0);
    expect(replaceEqualDeep({ date }, { date: new Date(0) }).date).not.toBe(date);
  });
});
