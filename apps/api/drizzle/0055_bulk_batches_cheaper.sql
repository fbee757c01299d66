-- Bulk batches cheaper (issue #32 item 4, ADR 044 amended): ledger_apply_deltas updates a
-- batch's many wallets with one statement after locking them in id order (an entry's few
-- lines keep one UPDATE an account); ledger_post_many takes a batch's lines without
-- comparing each with every new entry when all are new; bulk_pay_lines reads its lines
-- and looks up replays by key whatever the statistics, and locks the batch's users once
-- for the transfers rows' foreign keys.
--> statement-breakpoint
-- The balance rows' part of the ledger's write path: adds each account's net change of the
-- lines given. Called by ledger_apply_lines for one entry and by ledger_post_many for a
-- batch of entries (ADR 044), whose wallet then gets one new row version a batch instead of
-- one a line. A wallet's floor is checked on its net change: the lines are one
-- transaction's, and no one sees the balance between them. An entry's few lines (every
-- Quick Pay) take one UPDATE per account, as before; a batch's many wallets are locked in
-- id order by one statement and updated by one more (migration 0055): two hundred UPDATE
-- statements were the largest part of a bulk batch's balance work (bench/README.md).
CREATE OR REPLACE FUNCTION ledger_apply_deltas(p_account_ids uuid[], p_amounts bigint[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_delta record;
  v_bucket smallint;
  v_wallet_ids uuid[];
  v_wallet_amounts bigint[];
  v_updated_ids uuid[];
  v_short_id uuid;
BEGIN
  IF coalesce(cardinality(p_account_ids), 0) > 8 THEN
    SELECT array_agg(d.account_id ORDER BY d.account_id), array_agg(d.amount ORDER BY d.account_id)
      INTO v_wallet_ids, v_wallet_amounts
      FROM (SELECT line.account_id, sum(line.amount)::bigint AS amount
              FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
              JOIN accounts a ON a.id = line.account_id AND a.kind = 'customer'
             GROUP BY line.account_id
            HAVING sum(line.amount) <> 0) d;
  END IF;
  IF v_wallet_ids IS NOT NULL THEN
    -- The same global lock order as the loop below (wallets in id order, before any
    -- system account): the UPDATE's join would take its rows in no set order.
    PERFORM 1 FROM account_balances b
      WHERE b.account_id = ANY (v_wallet_ids) AND b.bucket = 0
      ORDER BY b.account_id FOR UPDATE;
    WITH updated AS (
      UPDATE account_balances b
         SET balance_minor = b.balance_minor + d.amount
        FROM unnest(v_wallet_ids, v_wallet_amounts) AS d(account_id, amount)
       WHERE b.account_id = d.account_id AND b.bucket = 0
         AND b.balance_minor + d.amount - b.held_minor >= 0
      RETURNING b.account_id
    )
    SELECT array_agg(updated.account_id) INTO v_updated_ids FROM updated;
    IF coalesce(cardinality(v_updated_ids), 0) < cardinality(v_wallet_ids) THEN
      -- The first short wallet in id order, as the loop would have named it.
      SELECT w.id INTO v_short_id FROM unnest(v_wallet_ids) WITH ORDINALITY AS w(id, position)
       WHERE NOT (w.id = ANY (coalesce(v_updated_ids, '{}')))
       ORDER BY w.position LIMIT 1;
      RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
        DETAIL = v_short_id::text;
    END IF;
  END IF;

  -- Wallets first, each in id order: every posting takes its row locks in one global
  -- order, so two opposite transfers wait for each other instead of deadlocking.
  -- System accounts have no floor; spreading their writers over buckets keeps them apart.
  FOR v_delta IN
    SELECT line.account_id, sum(line.amount)::bigint AS amount, a.kind, a.bucket_count
      FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
      JOIN accounts a ON a.id = line.account_id
     WHERE v_wallet_ids IS NULL OR a.kind <> 'customer'
     GROUP BY line.account_id, a.kind, a.bucket_count
    HAVING sum(line.amount) <> 0
     ORDER BY (a.kind <> 'customer'), line.account_id
  LOOP
    IF v_delta.kind = 'customer' THEN
      UPDATE account_balances
         SET balance_minor = balance_minor + v_delta.amount
       WHERE account_id = v_delta.account_id AND bucket = 0
         AND balance_minor + v_delta.amount - held_minor >= 0;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
          DETAIL = v_delta.account_id::text;
      END IF;
    ELSE
      -- The transaction id picks the bucket: concurrent transactions have consecutive ids,
      -- so they spread over the buckets, and a transaction that posts several entries keeps
      -- to one bucket per account, so two such transactions cannot take the same buckets in
      -- opposite orders and deadlock (a random bucket per posting could).
      v_bucket := (txid_current() % v_delta.bucket_count)::smallint;
      UPDATE account_balances
         SET balance_minor = balance_minor + v_delta.amount
       WHERE account_id = v_delta.account_id AND bucket = v_bucket;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'system account bucket missing';
      END IF;
    END IF;
  END LOOP;
END $$;
--> statement-breakpoint
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
CREATE OR REPLACE FUNCTION ledger_post_many(
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
--> statement-breakpoint
-- Pays claimed lines of one bulk payment file (ADR 044) in one statement, instead of
-- several round trips a line. The caller claimed the lines (FOR UPDATE SKIP LOCKED) and
-- locked the wallets, the sender's included, so the sender's available balance read once
-- here stays true as the lines spend it: a line it no longer covers is marked refused with
-- the reason and the next goes on. The lines it covers are posted together by
-- ledger_post_many, each its own entry with the idempotency key `bulk:<file>:<line>`, and
-- each wallet's balance row is updated once for the batch; a line posted before (a
-- replay) is marked paid with that entry, spends nothing and gets no second transfers
-- row. Any error ends the whole batch. The transfers rows are dated at the file's
-- confirmation, the day its total was counted against the limit. Its reads are written so
-- that any plan finds them by key (migration 0055): with the statistics of a table that a
-- file has just filled, the planner joined a batch's 200 keys to every pending line of the
-- file, and its replay look-up scanned every entry, both per batch.
CREATE OR REPLACE FUNCTION bulk_pay_lines(p_bulk_payment_id uuid, p_line_numbers int[])
RETURNS TABLE (line_number int, is_paid boolean, amount_minor bigint, recipient_user_id uuid)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_file record;
  v_key_prefix text := 'bulk:' || p_bulk_payment_id || ':';
  v_available_minor bigint;
  v_numbers int[];
  v_amounts bigint[];
  v_recipient_user_ids uuid[];
  v_recipient_wallet_ids uuid[];
  v_references text[];
  v_posted_before text[];
  v_is_paid boolean[] := '{}';
  v_entry_ids uuid[] := '{}';
  v_memos text[] := '{}';
  v_keys text[] := '{}';
  v_line_entry_ids uuid[] := '{}';
  v_line_account_ids uuid[] := '{}';
  v_line_amounts bigint[] := '{}';
  v_is_replay boolean[];
  v_entry_id uuid;
  v_entry_count int := 0;
BEGIN
  SELECT b.user_id, b.wallet_id, b.currency, b.confirmed_at INTO v_file
    FROM bulk_payments b WHERE b.id = p_bulk_payment_id;
  SELECT sum(a.balance_minor - a.held_minor) INTO v_available_minor
    FROM account_balances a WHERE a.account_id = v_file.wallet_id;
  SELECT array_agg(l.line_number ORDER BY l.line_number),
         array_agg(l.amount_minor ORDER BY l.line_number),
         array_agg(l.recipient_user_id ORDER BY l.line_number),
         array_agg(l.recipient_wallet_id ORDER BY l.line_number),
         array_agg(l.reference ORDER BY l.line_number)
    INTO v_numbers, v_amounts, v_recipient_user_ids, v_recipient_wallet_ids, v_references
    -- Each line by its key, one index probe a line (OFFSET 0 keeps the probe from being
    -- planned as a join): a join, or an = ANY filter, read every pending line of the file.
    FROM unnest(p_line_numbers) AS wanted(line_number)
   CROSS JOIN LATERAL (SELECT p.line_number, p.amount_minor, p.recipient_user_id,
                              p.recipient_wallet_id, p.reference
                         FROM bulk_payment_lines p
                        WHERE p.bulk_payment_id = p_bulk_payment_id
                          AND p.line_number = wanted.line_number AND p.status = 'pending'
                       OFFSET 0) l;
  IF v_numbers IS NULL THEN
    RETURN;
  END IF;
  SELECT coalesce(array_agg(e.idempotency_key), '{}') INTO v_posted_before
    FROM journal_entries e
   WHERE e.idempotency_key = ANY (ARRAY(SELECT v_key_prefix || n FROM unnest(v_numbers) AS n));

  -- In line order, each line the balance left covers is paid and spends it.
  FOR i IN 1 .. cardinality(v_numbers) LOOP
    IF (v_key_prefix || v_numbers[i]) = ANY (v_posted_before) THEN
      v_is_paid[i] := true;
    ELSE
      v_is_paid[i] := v_amounts[i] <= v_available_minor;
      IF v_is_paid[i] THEN
        v_available_minor := v_available_minor - v_amounts[i];
      END IF;
    END IF;
    IF v_is_paid[i] THEN
      -- Element assignments, not ||: they grow the arrays in place.
      v_entry_count := v_entry_count + 1;
      v_entry_id := gen_random_uuid();
      v_entry_ids[v_entry_count] := v_entry_id;
      v_memos[v_entry_count] := coalesce(nullif(v_references[i], ''), 'Bulk payment');
      v_keys[v_entry_count] := v_key_prefix || v_numbers[i];
      v_line_entry_ids[2 * v_entry_count - 1] := v_entry_id;
      v_line_entry_ids[2 * v_entry_count] := v_entry_id;
      v_line_account_ids[2 * v_entry_count - 1] := v_file.wallet_id;
      v_line_account_ids[2 * v_entry_count] := v_recipient_wallet_ids[i];
      v_line_amounts[2 * v_entry_count - 1] := -v_amounts[i];
      v_line_amounts[2 * v_entry_count] := v_amounts[i];
    END IF;
  END LOOP;

  SELECT coalesce(array_agg(p.idempotency_key), '{}'), coalesce(array_agg(p.entry_id), '{}'),
         coalesce(array_agg(p.is_replay), '{}')
    INTO v_keys, v_entry_ids, v_is_replay
    FROM ledger_post_many(p_kind => 'transfer', p_actor_user_id => v_file.user_id,
                          p_entry_ids => v_entry_ids, p_memos => v_memos,
                          p_idempotency_keys => v_keys, p_line_entry_ids => v_line_entry_ids,
                          p_line_account_ids => v_line_account_ids,
                          p_line_amounts => v_line_amounts) p;

  -- Each line with its entry (none when refused), for the three statements below.
  SELECT array_agg(posted.entry_id ORDER BY line.position),
         array_agg(coalesce(posted.is_replay, false) ORDER BY line.position)
    INTO v_line_entry_ids, v_is_replay
    FROM unnest(v_numbers) WITH ORDINALITY AS line(line_number, position)
    LEFT JOIN unnest(v_keys, v_entry_ids, v_is_replay) AS posted(idempotency_key, entry_id, is_replay)
      ON posted.idempotency_key = v_key_prefix || line.line_number;

  -- Each transfers row's two foreign keys lock their user rows one check at a time; locked
  -- here once for the batch, in id order, each check finds its row locked already.
  PERFORM 1 FROM users u
    WHERE u.id = ANY (array_append(v_recipient_user_ids, v_file.user_id))
    ORDER BY u.id FOR KEY SHARE;

  INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor,
                         currency, note, created_at)
  SELECT line.entry_id, v_file.user_id, line.recipient_user_id, line.amount_minor,
         v_file.currency, nullif(line.reference, ''), v_file.confirmed_at
    FROM unnest(v_line_entry_ids, v_recipient_user_ids, v_amounts, v_references, v_is_paid, v_is_replay)
         WITH ORDINALITY AS line(entry_id, recipient_user_id, amount_minor, reference, is_paid, is_replay, position)
   WHERE line.is_paid AND NOT line.is_replay
   ORDER BY line.position;

  UPDATE bulk_payment_lines l
     SET status = CASE WHEN line.is_paid THEN 'paid' ELSE 'refused' END,
         refusal_reason = CASE WHEN line.is_paid THEN NULL
                               ELSE 'Not enough money was left in your wallet for this line.' END,
         entry_id = line.entry_id
    FROM unnest(v_numbers, v_is_paid, v_line_entry_ids) AS line(line_number, is_paid, entry_id)
   WHERE l.bulk_payment_id = p_bulk_payment_id AND l.line_number = line.line_number;

  RETURN QUERY
    SELECT line.line_number, line.is_paid, line.amount_minor, line.recipient_user_id
      FROM unnest(v_numbers, v_is_paid, v_amounts, v_recipient_user_ids)
           AS line(line_number, is_paid, amount_minor, recipient_user_id);
END $$;
