// The customer search answers in up to three steps (ADR 022). With the steps' depths made
// small, every path is taken on a few dozen users, and each answer, page by page, must be
// the one a plain scan of the whole table gives.
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import { bareUser } from '../../../test/customers.ts';
import type { Database } from '../../db/client.ts';
import { insertUser } from '../auth/queries.ts';
import { listCustomers } from './queries.ts';

let db: Database;

useTestApp(async (opened) => {
  ({ db } = opened);
  const firstNames = ['Anna', 'Joan', 'Mark', 'Lena', 'Omar'];
  const surnames = ['Smith', 'Tanaka', 'Wu', 'Rossi', 'Ng', 'Anand', 'Kowalski'];
  for (let index = 0; index < 70; index += 1) {
    const first = firstNames[(index * 3) % firstNames.length] ?? '';
    const surname = surnames[(index * index) % surnames.length] ?? '';
    const domain = index % 4 === 0 ? 'mail.test' : 'post.test';
    await insertUser(
      db,
      bareUser({
        username: `${first} ${surname}`,
        email: `${first}.${surname}${index}@${domain}`.toLowerCase(),
      }),
    );
  }
});

/** Every match, newest first, by reading the whole table. */
async function everyMatch(term: string): Promise<string[]> {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const found = await db.query<{ id: string }>(
    'SELECT id FROM users WHERE lower(username) LIKE $1 OR email LIKE $1 ORDER BY id DESC',
    [pattern],
  );
  return found.rows.map((row) => row.id);
}

async function pageByPage(term: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await listCustomers(
      db,
      { search: term, cursor, limit },
      { readRowByRow: 6, indexedFirst: 20 },
    );
    ids.push(...page.map((row) => row.id));
    if (page.length < limit) return ids;
    cursor = page.at(-1)?.id;
  }
}

describe('customer search in steps', () => {
  const terms = [
    'a',
    'an',
    'smith',
    'tanaka',
    'wu',
    'ng',
    'omar ng',
    'na.',
    '7@',
    'mail.test',
    'zzq',
    '%',
  ];
  it.each(terms)('finds every match for "%s", newest first, a page at a time', async (term) => {
    const expected = await everyMatch(term);
    for (const limit of [1, 4, 11]) expect(await pageByPage(term, limit)).toEqual(expected);
  });
});
