-- The balance rows' part of the ledger's write path: adds each account's net change of the
-- lines given, one UPDATE per account however many of the lines are its own. Called by
-- ledger_apply_lines for one entry and by ledger_post_many for a batch of entries (ADR 044),
-- whose wallet then gets one new row version a batch instead of one a line. A wallet's
-- floor is checked on its net change: the lines are one transaction's, and no one sees
-- the balance between them.
CREATE FUNCTION ledger_apply_deltas(p_account_ids uuid[], p_amounts bigint[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_delta record;
  v_bucket smallint;
BEGIN
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
