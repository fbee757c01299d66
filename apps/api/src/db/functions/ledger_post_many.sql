-- Posts a batch of entries of one kind and actor (the bulk payer's, ADR 044) in a few
-- statements instead of ledger_post's ten or so an entry: each entry is its own, with
-- its idempotency key (an existing key returns the first entry instead), its lines
-- and its checks (two or more lines, none zero, known accounts, summing to zero per
-- currency), and then each account's balance row is updated once with its net change
-- over the new entries (ledger_apply_deltas). Lines are given flat, each naming its
-- entry. Answers every key with its entry and whether it was there before. When every
-- entry is new (a batch's usual case) its lines are taken without asking each whether its
-- entry is among the new ones (migration 0055): that = ANY over the batch's entries cost
-- lines × entries comparisons, a tenth of a 1,000-line batch.
CREATE FUNCTION ledger_post_many(
  p_kind entry_kind, p_actor_user_id uuid,
  p_entry_ids uuid[], p_memos text[], p_idempotency_keys text[],
  p_line_entry_ids uuid[], p_line_account_ids uuid[], p_line_amounts bigint[]
) RETURNS TABLE (idempotency_key text, entry_id uuid, is_replay boolean) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_entry_count int := coalesce(cardinality(p_entry_ids), 0);
  v_line_count int := coalesce(cardinality(p_line_entry_ids), 0);
  v_posted_at timestamptz := now();
  v_inserted_ids uuid[];
  v_is_all_new boolean;
  v_problem text;
  v_entry record;
BEGIN
  IF v_entry_count <> coalesce(cardinality(p_memos), 0)
     OR v_entry_count <> coalesce(cardinality(p_idempotency_keys), 0)
     OR v_line_count <> coalesce(cardinality(p_line_account_ids), 0)
     OR v_line_count <> coalesce(cardinality(p_line_amounts), 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'entries and lines must come in parallel arrays';
  END IF;
  IF v_entry_count = 0 THEN
    RETURN;
  END IF;
  -- One key an entry: a key twice in a batch would post one entry and answer it for both.
  IF (SELECT count(DISTINCT key) FROM unnest(p_idempotency_keys) AS key) <> v_entry_count
     OR array_position(p_idempotency_keys, NULL) IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'each entry of a batch needs its own key';
  END IF;
  IF array_position(p_line_amounts, 0::bigint) IS NOT NULL
     OR array_position(p_line_amounts, NULL) IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a line amount must not be zero';
  END IF;
  SELECT 'entry ' || coalesce(e.id, line.entry_id) || CASE WHEN e.id IS NULL THEN ' is not in the batch'
                                                      ELSE ' needs two or more lines' END
    INTO v_problem
    FROM unnest(p_entry_ids) AS e(id)
    FULL JOIN (SELECT l.entry_id, count(*) AS line_count FROM unnest(p_line_entry_ids) AS l(entry_id)
                GROUP BY l.entry_id) line ON line.entry_id = e.id
   WHERE e.id IS NULL OR coalesce(line.line_count, 0) < 2
   LIMIT 1;
  IF v_problem IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = v_problem;
  END IF;

  -- Unknown accounts and unbalanced entries, in one pass over the lines (accounts.currency
  -- is never null, so a null one is a line's unknown account).
  SELECT CASE WHEN s.currency IS NULL THEN 'unknown'
              ELSE 'entry ' || s.entry_id || ' does not sum to zero in ' || s.currency END
    INTO v_problem
    FROM (SELECT line.entry_id, a.currency, sum(line.amount) AS total
            FROM unnest(p_line_entry_ids, p_line_account_ids, p_line_amounts)
                 AS line(entry_id, account_id, amount)
            LEFT JOIN accounts a ON a.id = line.account_id
           GROUP BY line.entry_id, a.currency) s
   WHERE s.currency IS NULL OR s.total <> 0
   ORDER BY s.currency IS NULL DESC
   LIMIT 1;
  IF v_problem = 'unknown' THEN
    RAISE EXCEPTION USING ERRCODE = 'CF003', MESSAGE = 'account not found';
  ELSIF v_problem IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = v_problem;
  END IF;

  -- A concurrent posting with one of these keys waits here on the unique index until it
  -- commits, then is seen: each entry is applied once, whatever the timing.
  WITH inserted AS (
    INSERT INTO journal_entries (id, kind, memo, idempotency_key, actor_user_id, created_at)
    SELECT e.id, p_kind, e.memo, e.key, p_actor_user_id, v_posted_at
      FROM unnest(p_entry_ids, p_memos, p_idempotency_keys) WITH ORDINALITY AS e(id, memo, key, position)
     ORDER BY e.position
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
  )
  SELECT coalesce(array_agg(id), '{}') INTO v_inserted_ids FROM inserted;
  v_is_all_new := cardinality(v_inserted_ids) = v_entry_count;

  -- The new entries' lines, with their entry's time and kind (ADR 047), in the order given.
  INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency, posted_at, kind)
  SELECT line.entry_id, line.account_id, line.amount, a.currency, v_posted_at, p_kind
    FROM unnest(p_line_entry_ids, p_line_account_ids, p_line_amounts) WITH ORDINALITY
         AS line(entry_id, account_id, amount, position)
    JOIN accounts a ON a.id = line.account_id
   WHERE v_is_all_new OR line.entry_id = ANY (v_inserted_ids)
   ORDER BY line.position;

  PERFORM ledger_apply_deltas(array_agg(line.account_id), array_agg(line.amount))
     FROM unnest(p_line_entry_ids, p_line_account_ids, p_line_amounts) AS line(entry_id, account_id, amount)
    WHERE v_is_all_new OR line.entry_id = ANY (v_inserted_ids)
   HAVING count(*) > 0;

  -- Integrators' events, one call an entry as ledger_apply_lines makes, after the locks.
  IF cardinality(v_inserted_ids) > 0 AND EXISTS (
       SELECT 1 FROM webhook_endpoints
        WHERE status = 'enabled' AND ('money.' || p_kind::text) = ANY (event_types)) THEN
    FOR v_entry IN
      SELECT line.entry_id, array_agg(line.account_id ORDER BY line.position) AS account_ids,
             array_agg(line.amount ORDER BY line.position) AS amounts
        FROM unnest(p_line_entry_ids, p_line_account_ids, p_line_amounts) WITH ORDINALITY
             AS line(entry_id, account_id, amount, position)
       WHERE v_is_all_new OR line.entry_id = ANY (v_inserted_ids)
       GROUP BY line.entry_id ORDER BY min(line.position)
    LOOP
      PERFORM webhooks_enqueue_money(v_entry.entry_id, p_kind, v_posted_at,
                                     v_entry.account_ids, v_entry.amounts);
    END LOOP;
  END IF;

  RETURN QUERY
    SELECT e.key, e.id, false FROM unnest(p_entry_ids, p_idempotency_keys) AS e(id, key)
     WHERE v_is_all_new OR e.id = ANY (v_inserted_ids);
  IF cardinality(v_inserted_ids) < v_entry_count THEN
    RETURN QUERY
      SELECT j.idempotency_key, j.id, true FROM journal_entries j
       WHERE j.idempotency_key = ANY (p_idempotency_keys) AND NOT (j.id = ANY (v_inserted_ids));
  END IF;
END $$;
