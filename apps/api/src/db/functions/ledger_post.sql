CREATE OR REPLACE FUNCTION ledger_post(
  p_entry_id uuid, p_kind entry_kind, p_memo text, p_idempotency_key text,
  p_actor_user_id uuid, p_account_ids uuid[], p_amounts bigint[],
  p_posted_at timestamptz DEFAULT NULL
) RETURNS TABLE (entry_id uuid, is_replay boolean) LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_inserted_id uuid;
BEGIN
  -- p_posted_at back-dates an entry: the sandbox's demo history alone asks for it
  -- (ledger.ts postBackDated). Never into the future, and never into a closed day of the
  -- books, whose snapshot would no longer match its lines.
  IF p_posted_at IS NOT NULL AND (
    p_posted_at > now() OR EXISTS (SELECT 1 FROM book_closes WHERE ends_at > p_posted_at)
  ) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900',
      MESSAGE = 'a back-dated entry must fall after the last closed day and before now';
  END IF;
  -- A concurrent posting with the same key waits here on the unique index until the
  -- first one commits, then sees it: the entry is applied once, whatever the timing.
  INSERT INTO journal_entries (id, kind, memo, idempotency_key, actor_user_id, created_at)
  VALUES (p_entry_id, p_kind, p_memo, p_idempotency_key, p_actor_user_id,
          coalesce(p_posted_at, now()))
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
