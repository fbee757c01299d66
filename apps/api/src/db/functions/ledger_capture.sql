CREATE OR REPLACE FUNCTION ledger_capture(
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
