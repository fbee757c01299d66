CREATE OR REPLACE FUNCTION wallet_period_sums(p_account_id uuid, p_start timestamptz, p_end timestamptz, p_last_line_id bigint)
RETURNS TABLE (at timestamptz, kind entry_kind, credits_minor bigint, debits_minor bigint, line_count bigint)
LANGUAGE sql STABLE AS $$
  -- A customer wallet's money in [p_start, p_end), up to its line p_last_line_id, as rows to
  -- add up: the whole hours that wallet_hourly_totals holds, and the lines of the rest (the
  -- period's edges that are not whole hours, and the hours after its watermark). An hour
  -- summed after the caller read its last line is read from its lines, up to that line.
  WITH bounds AS (
    SELECT b.summed_from,
           CASE WHEN EXISTS (SELECT 1 FROM accounts a WHERE a.id = p_account_id AND a.kind = 'customer')
                THEN greatest(b.summed_from, least(date_trunc('hour', p_end, 'UTC'),
                                                   coalesce(s.summarized_before, '-infinity')))
                ELSE b.summed_from END AS summed_to
      FROM wallet_hourly_totals_state s,
           LATERAL (SELECT least(p_end, CASE WHEN date_trunc('hour', p_start, 'UTC') = p_start THEN p_start
                                             ELSE date_trunc('hour', p_start, 'UTC') + interval '1 hour' END)
                      AS summed_from) b
  )
  SELECT t.hour, t.kind, t.credits_minor, t.debits_minor, t.line_count::bigint
    FROM bounds, wallet_hourly_totals t
   WHERE t.account_id = p_account_id AND t.hour >= bounds.summed_from AND t.hour < bounds.summed_to
     AND t.max_line_id <= p_last_line_id
  UNION ALL
  SELECT l.posted_at, l.kind, greatest(l.amount_minor, 0), greatest(-l.amount_minor, 0), 1
    FROM bounds, journal_lines l
   WHERE l.account_id = p_account_id AND l.posted_at >= p_start AND l.posted_at < bounds.summed_from
     AND l.id <= p_last_line_id
  UNION ALL
  SELECT l.posted_at, l.kind, greatest(l.amount_minor, 0), greatest(-l.amount_minor, 0), 1
    FROM bounds, journal_lines l
   WHERE l.account_id = p_account_id AND l.posted_at >= bounds.summed_to AND l.posted_at < p_end
     AND l.id <= p_last_line_id
  UNION ALL
  SELECT l.posted_at, l.kind, greatest(l.amount_minor, 0), greatest(-l.amount_minor, 0), 1
    FROM bounds, wallet_hourly_totals t
    JOIN journal_lines l ON l.account_id = t.account_id AND l.kind = t.kind
                        AND l.posted_at >= t.hour AND l.posted_at < t.hour + interval '1 hour'
   WHERE t.account_id = p_account_id AND t.hour >= bounds.summed_from AND t.hour < bounds.summed_to
     AND t.max_line_id > p_last_line_id AND l.id <= p_last_line_id
$$;
