-- The ledger's write path. Each function runs inside the caller's transaction, so a
-- posting costs one round trip and holds its row locks only while the server works.
-- They run with generic plans (plan_cache_mode): the default rates the generic plans of
-- the unnest() joins dearer than custom ones and re-planned every statement on every
-- call, about 40 % of a transfer's server CPU (bench/README.md). The generic plans are
-- primary-key lookups, the right ones.
-- Custom SQLSTATEs, mapped to error codes in src/ledger/ledger-errors.ts:
--   CF001 insufficient funds   CF002 hold not active   CF003 account not found
--   CF004 hold not found       CF900 malformed request (a bug)   CF901 append-only table

CREATE FUNCTION ledger_apply_lines(p_entry_id uuid, p_account_ids uuid[], p_amounts bigint[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_line_count int := coalesce(array_length(p_account_ids, 1), 0);
  v_known_accounts int;
  v_unbalanced_currency text;
  v_delta record;
  v_bucket smallint;
BEGIN
  IF v_line_count < 2 OR v_line_count <> coalesce(array_length(p_amounts, 1), 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'an entry needs two or more lines';
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(p_amounts) AS amount WHERE amount IS NULL OR amount = 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a line amount must not be zero';
  END IF;

  SELECT count(*) INTO v_known_accounts FROM accounts
   WHERE id IN (SELECT DISTINCT unnest(p_account_ids));
  IF v_known_accounts <> (SELECT count(DISTINCT id) FROM unnest(p_account_ids) AS id) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF003', MESSAGE = 'account not found';
  END IF;

  SELECT a.currency INTO v_unbalanced_currency
    FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
    JOIN accounts a ON a.id = line.account_id
   GROUP BY a.currency HAVING sum(line.amount) <> 0 LIMIT 1;
  IF v_unbalanced_currency IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900',
      MESSAGE = 'entry does not sum to zero in ' || v_unbalanced_currency;
  END IF;

  INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency)
  SELECT p_entry_id, line.account_id, line.amount, a.currency
    FROM unnest(p_account_ids, p_amounts) WITH ORDINALITY AS line(account_id, amount, position)
    JOIN accounts a ON a.id = line.account_id
   ORDER BY line.position;

  -- Wallets first, each in id order: every posting takes its row locks in one global
  -- order, so two opposite transfers wait for each other instead of deadlocking.
  -- System accounts have no floor; spreading their writers over buckets keeps them apart.
  FOR v_delta IN
    SELECT line.account_id, sum(line.amount)::bigint AS amount, a.kind, a.bucket_count
      FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
      JOIN accounts a ON a.id = line.account_id
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

CREATE FUNCTION ledger_post(
  p_entry_id uuid, p_kind entry_kind, p_memo text, p_idempotency_key text,
  p_actor_user_id uuid, p_account_ids uuid[], p_amounts bigint[]
) RETURNS TABLE (entry_id uuid, is_replay boolean) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_inserted_id uuid;
BEGIN
  -- A concurrent posting with the same key waits here on the unique index until the
  -- first one commits, then sees it: the entry is applied once, whatever the timing.
  INSERT INTO journal_entries (id, kind, memo, idempotency_key, actor_user_id)
  VALUES (p_entry_id, p_kind, p_memo, p_idempotency_key, p_actor_user_id)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_inserted_id;
  IF v_inserted_id IS NULL THEN
    RETURN QUERY SELECT e.id, true FROM journal_entries e
                  WHERE e.idempotency_key = p_idempotency_key;
    RETURN;
  END IF;
  PERFORM ledger_apply_lines(p_entry_id, p_account_ids, p_amounts);
  RETURN QUERY SELECT p_entry_id, false;
END $$;
--> statement-breakpoint

CREATE FUNCTION ledger_hold(p_hold_id uuid, p_account_id uuid, p_amount bigint, p_reason text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a hold amount must be positive';
  END IF;
  UPDATE account_balances b
     SET held_minor = held_minor + p_amount
    FROM accounts a
   WHERE a.id = p_account_id AND a.kind = 'customer'
     AND b.account_id = a.id AND b.bucket = 0
     AND b.balance_minor - b.held_minor - p_amount >= 0;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM accounts WHERE id = p_account_id AND kind = 'customer') THEN
      RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
        DETAIL = p_account_id::text;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CF003', MESSAGE = 'account not found';
  END IF;
  INSERT INTO holds (id, account_id, amount_minor, reason)
  VALUES (p_hold_id, p_account_id, p_amount, p_reason);
END $$;
--> statement-breakpoint

-- Marks an active hold settled and returns its account and amount; the hold row lock
-- makes a second capture or release of the same hold wait and then fail.
CREATE FUNCTION ledger_settle_hold(p_hold_id uuid, p_status hold_status)
RETURNS TABLE (account_id uuid, amount_minor bigint) LANGUAGE plpgsql AS $$
DECLARE
  v_account_id uuid;
  v_amount bigint;
BEGIN
  UPDATE holds h SET status = p_status, settled_at = now()
   WHERE h.id = p_hold_id AND h.status = 'active'
  RETURNING h.account_id, h.amount_minor INTO v_account_id, v_amount;
  IF v_account_id IS NULL THEN
    IF EXISTS (SELECT 1 FROM holds h WHERE h.id = p_hold_id) THEN
      RAISE EXCEPTION USING ERRCODE = 'CF002', MESSAGE = 'hold is not active';
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CF004', MESSAGE = 'hold not found';
  END IF;
  RETURN QUERY SELECT v_account_id, v_amount;
END $$;
--> statement-breakpoint

CREATE FUNCTION ledger_release(p_hold_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_hold record;
BEGIN
  SELECT * INTO v_hold FROM ledger_settle_hold(p_hold_id, 'released');
  UPDATE account_balances SET held_minor = held_minor - v_hold.amount_minor
   WHERE account_id = v_hold.account_id AND bucket = 0;
END $$;
--> statement-breakpoint

CREATE FUNCTION ledger_capture(
  p_hold_id uuid, p_entry_id uuid, p_kind entry_kind, p_memo text,
  p_actor_user_id uuid, p_account_ids uuid[], p_amounts bigint[]
) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_hold record;
  v_hold_account_delta bigint;
BEGIN
  SELECT * INTO v_hold FROM ledger_settle_hold(p_hold_id, 'captured');
  SELECT coalesce(sum(line.amount), 0) INTO v_hold_account_delta
    FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
   WHERE line.account_id = v_hold.account_id;
  IF v_hold_account_delta <> -v_hold.amount_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900',
      MESSAGE = 'a capture must debit the held account by exactly the held amount';
  END IF;
  -- Lock every wallet of the entry in id order before touching any, as postings do.
  PERFORM 1 FROM account_balances b JOIN accounts a ON a.id = b.account_id
    WHERE b.account_id = ANY (p_account_ids) AND a.kind = 'customer' AND b.bucket = 0
    ORDER BY b.account_id FOR UPDATE OF b;
  UPDATE account_balances SET held_minor = held_minor - v_hold.amount_minor
   WHERE account_id = v_hold.account_id AND bucket = 0;
  INSERT INTO journal_entries (id, kind, memo, actor_user_id)
  VALUES (p_entry_id, p_kind, p_memo, p_actor_user_id);
  PERFORM ledger_apply_lines(p_entry_id, p_account_ids, p_amounts);
  UPDATE holds SET capture_entry_id = p_entry_id WHERE id = p_hold_id;
END $$;
--> statement-breakpoint

CREATE FUNCTION refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CF901', MESSAGE = TG_TABLE_NAME || ' is append-only';
END $$;
--> statement-breakpoint
CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
CREATE TRIGGER journal_lines_append_only BEFORE UPDATE OR DELETE ON journal_lines
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
CREATE TRIGGER journal_lines_no_truncate BEFORE TRUNCATE ON journal_lines
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
