// Staff search, by what a customer quotes (issue #31 item 1) and by part of a name or
// address, stays an index look-up: the plans PostgreSQL makes for it read no table whole.
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import type { Database } from '../../db/client.ts';
import { identifierMatchesQuery, matchesSearch } from './queries.ts';

let db: Database;

useTestApp((opened) => {
  ({ db } = opened);
});

/** The plan PostgreSQL makes for `text`, with sequential scans priced out. */
async function planOf(text: string, values: unknown[]): Promise<string> {
  // The tables are small here, so the planner would read them whole: with sequential
  // scans priced out, a branch without an index would still show one.
  return db.transaction(async (tx) => {
    await tx.query('SET LOCAL enable_seqscan = off');
    const explained = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, values);
    return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

it('finds part of a username, legal name or address through their trigram indexes', async () => {
  const plan = await planOf(`SELECT id FROM users u WHERE ${matchesSearch}`, ['%walker%']);
  expect(plan).not.toMatch(/Seq Scan/);
  for (const index of [
    'users_username_trigram_idx',
    'users_legal_name_trigram_idx',
    'users_email_trigram_idx',
  ]) {
    expect(plan).toContain(index);
  }
});

it('looks every identifier up through an index', async () => {
  const indexesByTerm = {
    '1234': ['cards_last_four_idx'],
    '4155552671': ['accounts_number_unique', 'users_phone_idx'],
    'REF-ABCDE1234': ['disputes_reference_unique'],
  };
  for (const [term, indexes] of Object.entries(indexesByTerm)) {
    const query = identifierMatchesQuery(term, { cursor: null, limit: 26 });
    if (query === null) throw new Error(`${term} is an identifier`);
    const plan = await planOf(query.text, query.values);
    expect(plan, term).not.toMatch(/Seq Scan/);
    for (const index of indexes) expect(plan, term).toContain(index);
  }
});
