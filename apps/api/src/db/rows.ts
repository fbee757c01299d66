import type { InferSelectModel, Table } from 'drizzle-orm';

/** "emailVerifiedAt" → "email_verified_at": how schema.ts names a column in SQL. */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

/**
 * A table's row as raw SQL (`SELECT *`) answers it: the columns Drizzle infers from
 * db/schema.ts, under their SQL names, so row types are never written by hand beside it.
 */
export type RowOf<T extends Table> = {
  [Key in keyof InferSelectModel<T> as SnakeCase<Key & string>]: InferSelectModel<T>[Key];
};
