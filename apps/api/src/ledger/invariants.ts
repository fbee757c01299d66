import { setImmediate } from 'node:timers/promises';
import type { Queryable } from '../db/client.ts';

// Each check returns the rows that break one invariant, described in words.
const checks: { name: string; sql: string }[] = [
  {
    name: 'entry does not sum to zero in its currency',
    sql: `SELECT entry_id::text AS subject, currency || ' ' || sum(amount_minor) AS detail
            FROM journal_lines GROUP BY entry_id, currency HAVING sum(amount_minor) <> 0`,
  },
  {
    name: 'entry has fewer than two lines',
    sql: `SELECT e.id::text AS subject, count(l.id)::text AS detail
            FROM journal_entries e LEFT JOIN journal_lines l ON l.entry_id = e.id
           GROUP BY e.id HAVING count(l.id) < 2`,
  },
  {
    name: 'line refers to no entry',
    sql: `SELECT l.id::text AS subject, l.entry_id::text AS detail FROM journal_lines l
            LEFT JOIN journal_entries e ON e.id = l.entry_id WHERE e.id IS NULL`,
  },
  {
    name: 'line, balance or hold refers to no account',
    sql: `SELECT l.id::text AS subject, l.account_id::text AS detail FROM journal_lines l
            LEFT JOIN accounts a ON a.id = l.account_id WHERE a.id IS NULL
          UNION ALL
          SELECT b.account_id::text AS subject, 'bucket ' || b.bucket AS detail FROM account_balances b
            LEFT JOIN accounts a ON a.id = b.account_id WHERE a.id IS NULL
          UNION ALL
          SELECT h.id::text AS subject, 'hold on ' || h.account_id AS detail FROM holds h
            LEFT JOIN accounts a ON a.id = h.account_id WHERE a.id IS NULL`,
  },
  {
    // Lines carry their entry's time and kind (ADR 047): statements and charts read them.
    name: 'line time or kind differs from its entry',
    sql: `SELECT l.id::text AS subject, l.posted_at || ' ' || l.kind || ' vs ' || e.created_at || ' ' || e.kind AS detail
            FROM journal_lines l JOIN journal_entries e ON e.id = l.entry_id
           WHERE l.posted_at <> e.created_at OR l.kind <> e.kind`,
  },
  {
    name: 'line currency differs from its account',
    sql: `SELECT l.id::text AS subject, l.currency || ' vs ' || a.currency AS detail
            FROM journal_lines l JOIN accounts a ON a.id = l.account_id
           WHERE l.currency <> a.currency`,
  },
  {
    // One read of every line for both: a wallet's closed hours' totals (ADR 053) stand in for
    // its lines in statements and charts, so they are held to the same account as its balance.
    name: 'account balance or hourly totals differ from its lines',
    sql: `WITH balances AS (
            SELECT account_id, sum(balance_minor) AS balance FROM account_balances GROUP BY account_id),
          watermark AS (
            SELECT coalesce(summarized_before, '-infinity') AS before FROM wallet_hourly_totals_state),
          line_sums AS (
            SELECT l.account_id, sum(l.amount_minor) AS total,
                   coalesce(sum(l.amount_minor) FILTER (WHERE l.amount_minor > 0 AND l.posted_at < w.before), 0) AS credits,
                   coalesce(-sum(l.amount_minor) FILTER (WHERE l.amount_minor < 0 AND l.posted_at < w.before), 0) AS debits,
                   count(*) FILTER (WHERE l.posted_at < w.before) AS lines
              FROM journal_lines l, watermark w GROUP BY l.account_id),
          summed AS (
            SELECT account_id, sum(credits_minor) AS credits, sum(debits_minor) AS debits,
                   sum(line_count) AS lines
              FROM wallet_hourly_totals GROUP BY account_id)
          SELECT b.account_id::text AS subject, b.balance || ' vs lines ' || coalesce(s.total, 0) AS detail
            FROM balances b LEFT JOIN line_sums s ON s.account_id = b.account_id
           WHERE b.balance <> coalesce(s.total, 0)
          UNION ALL
          SELECT a.id::text AS subject,
                 'hourly totals ' || coalesce(t.credits, 0) || '/' || coalesce(t.debits, 0) || '/' || coalesce(t.lines, 0)
                 || ' vs lines ' || coalesce(s.credits, 0) || '/' || coalesce(s.debits, 0) || '/' || coalesce(s.lines, 0) AS detail
            FROM accounts a
            LEFT JOIN line_sums s ON s.account_id = a.id
            LEFT JOIN summed t ON t.account_id = a.id
           WHERE (a.kind = 'customer' AND (coalesce(t.credits, 0), coalesce(t.debits, 0), coalesce(t.lines, 0))
                    IS DISTINCT FROM (coalesce(s.credits, 0), coalesce(s.debits, 0), coalesce(s.lines, 0)))
              OR (a.kind <> 'customer' AND t.account_id IS NOT NULL)`,
  },
  {
    name: 'wallet is negative or holds more than its balance',
    sql: `SELECT b.account_id::text AS subject, 'balance ' || b.balance_minor || ' held ' || b.held_minor AS detail
            FROM account_balances b JOIN accounts a ON a.id = b.account_id
           WHERE a.kind = 'customer' AND (b.balance_minor < 0 OR b.held_minor > b.balance_minor)`,
  },
  {
    name: 'held amount differs from the active holds',
    sql: `WITH active AS (
            SELECT account_id, sum(amount_minor) AS total FROM holds WHERE status = 'active' GROUP BY account_id),
          held AS (
            SELECT account_id, sum(held_minor) AS total FROM account_balances GROUP BY account_id)
          SELECT h.account_id::text AS subject, h.total || ' vs active holds ' || coalesce(a.total, 0) AS detail
            FROM held h LEFT JOIN active a ON a.account_id = h.account_id
           WHERE h.total <> coalesce(a.total, 0)`,
  },
  {
    // ADR 051: an exchange posts each side in its own currency, so exactly two. Read through
    // the quotes (every exchange has one) and the lines' entry index: no scan of all lines.
    name: 'exchange entry is not in exactly two currencies',
    sql: `SELECT q.entry_id::text AS subject, count(DISTINCT l.currency)::text AS detail
            FROM exchange_quotes q JOIN journal_lines l ON l.entry_id = q.entry_id
           WHERE q.accepted_at IS NOT NULL
           GROUP BY q.entry_id HAVING count(DISTINCT l.currency) <> 2`,
  },
  {
    // The customer receives exactly the amount the quote showed, and pays exactly its price.
    name: 'accepted exchange quote differs from its entry',
    sql: `SELECT q.id::text AS subject,
                 'sold ' || q.sell_minor || ' received ' || q.receive_minor || ' vs lines '
                   || coalesce(sum(l.amount_minor) FILTER (WHERE l.account_id = q.sell_account_id), 0) || ' '
                   || coalesce(sum(l.amount_minor) FILTER (WHERE l.account_id = q.receive_account_id), 0) AS detail
            FROM exchange_quotes q LEFT JOIN journal_lines l ON l.entry_id = q.entry_id
           WHERE q.accepted_at IS NOT NULL
           GROUP BY q.id
          HAVING coalesce(sum(l.amount_minor) FILTER (WHERE l.account_id = q.sell_account_id), 0) <> -q.sell_minor
              OR coalesce(sum(l.amount_minor) FILTER (WHERE l.account_id = q.receive_account_id), 0) <> q.receive_minor`,
  },
  {
    name: 'captured hold has no entry',
    sql: `SELECT id::text AS subject, amount_minor::text AS detail FROM holds
           WHERE status = 'captured' AND capture_entry_id IS NULL`,
  },
];

/** Every way the books are wrong right now; an empty list means they balance. */
export async function checkInvariants(db: Queryable): Promise<string[]> {
  const violations: string[] = [];
  for (const check of checks) {
    const result = await db.query<{ subject: string; detail: string }>(check.sql);
    for (const row of result.rows) violations.push(`${check.name}: ${row.subject} (${row.detail})`);
    // Each check reads whole tables: on the embedded database, requests go in between.
    await setImmediate();
  }
  return violations;
}
