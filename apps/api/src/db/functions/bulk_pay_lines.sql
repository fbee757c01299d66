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
