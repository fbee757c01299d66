// Staff search by what a customer quotes (issue #31 item 1) stays an index look-up for
// each kind of term: the plans PostgreSQL makes for it read no table whole.
import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.ts';
import type { Database } from '../../db/client.ts';
import { identifierMatchesQuery } from './queries.ts';

let db: Database;

useTestApp((opened) => {
  ({ db } = opened);
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
    // The tables are small here, so the planner would read them whole: with sequential
    // scans priced out, a branch without an index would still show one.
    const plan = await db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const explained = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${query.text}`,
        query.values,
      );
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan, term).not.toMatch(/Seq Scan/);
    for (const index of indexes) expect(plan, term).toContain(index);
  }
});
