/** A query's name: an array whose first items name the feature (`['wallet', 'transactions']`). */
export type QueryKey = readonly unknown[];

declare const dataTag: unique symbol;

/** A query key that carries the type of its data, so `getQueryData(key)` knows it. */
export type DataTag<TKey extends QueryKey, TData> = TKey & { [dataTag]: TData };

/** The data type a key was tagged with by `queryOptions` (unknown for a plain key). */
export type DataOf<TKey> = TKey extends { [dataTag]: infer TData } ? TData : unknown;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The key as a string, the same for keys equal in structure: an object's properties are
 * taken in sorted order, so `{ from, to }` and `{ to, from }` name the same query.
 */
export function hashQueryKey(queryKey: QueryKey): string {
  return JSON.stringify(queryKey, (_, value: unknown) =>
    isPlainObject(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, value[key]]),
        )
      : value,
  );
}

/** Whether `value` contains `part`: every property (or item) of `part` is in it, alike. */
function containsDeep(value: unknown, part: unknown): boolean {
  if (value === part) return true;
  if (typeof value !== 'object' || typeof part !== 'object' || value === null || part === null)
    return false;
  return Object.keys(part).every((key) =>
    containsDeep((value as Record<string, unknown>)[key], (part as Record<string, unknown>)[key]),
  );
}

/**
 * Whether a filter's key names the query: the query's key starts with it, item by item,
 * so `['wallet']` names `['wallet', 'transactions']` and every other wallet query.
 */
export function matchesQueryKey(queryKey: QueryKey, filterKey: QueryKey): boolean {
  return containsDeep(queryKey, filterKey);
}

/**
 * `next`, keeping every part of `previous` that is equal in structure: an answer that did
 * not change keeps its object (and a component's memo or effect that depends on it does
 * not run again); one changed row gets a new object, and so do the arrays and objects
 * that hold it.
 */
export function replaceEqualDeep<T>(previous: unknown, next: T): T {
  if (previous === next) return previous as T;
  const isArray = Array.isArray(previous) && Array.isArray(next);
  if (!isArray && !(isPlainObject(previous) && isPlainObject(next))) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = Object.keys(after);
  const copy = (isArray ? [] : {}) as Record<string, unknown>;
  let equalCount = 0;
  for (const key of keys) {
    copy[key] = replaceEqualDeep(before[key], after[key]);
    if (key in before && copy[key] === before[key]) equalCount++;
  }
  return (
    keys.length === Object.keys(before).length && equalCount === keys.length ? previous : copy
  ) as T;
}
