-- The balance rows' part of the ledger's write path: adds each account's net change of the
-- lines given. Called by ledger_apply_lines for one entry and by ledger_post_many for a
-- batch of entries (ADR 044), whose wallet then gets one new row version a batch instead of
-- one a line. A wallet's floor is checked on its net change: the lines are one
-- transaction's, and no one sees the balance between them. An entry's few lines (every
-- Quick Pay) take one UPDATE per account, as before; a batch's many wallets are locked in
-- id order by one statement and updated by one more (migration 0055): two hundred UPDATE
-- statements were the largest part of a bulk batch's balance work (bench/README.md).
CREATE FUNCTION ledger_apply_deltas(p_account_ids uuid[], p_amounts bigint[])
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
