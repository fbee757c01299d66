-- The ledger's write path. Each function runs inside the caller's transaction, so a
-- posting costs one round trip and holds its row locks only while the server works.
-- They run with generic plans (plan_cache_mode): the default rates the generic plans of
-- the unnest() joins dearer than custom ones and re-planned every statement on every
-- call, about 40 % of a transfer's server CPU (bench/README.md). The generic plans are
-- primary-key lookups, the right ones.
-- Their refusals' SQLSTATEs are mapped to error codes in db/sql-errors.ts.
CREATE OR REPLACE FUNCTION ledger_apply_lines(p_entry_id uuid, p_account_ids uuid[], p_amounts bigint[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_line_count int := coalesce(array_length(p_account_ids, 1), 0);
  v_known_accounts int;
  v_unbalanced_currency text;
  v_entry record;
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

  -- Each line carries its entry's time and kind (migration 0042), so an account's lines
  -- in a period or of a kind are found by the line index alone, without the entries.
  SELECT created_at, kind INTO v_entry FROM journal_entries WHERE id = p_entry_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'lines need their entry first';
  END IF;

  INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency, posted_at, kind)
  SELECT p_entry_id, line.account_id, line.amount, a.currency, v_entry.created_at, v_entry.kind
    FROM unnest(p_account_ids, p_amounts) WITH ORDINALITY AS line(account_id, amount, position)
    JOIN accounts a ON a.id = line.account_id
   ORDER BY line.position;

  PERFORM ledger_apply_deltas(p_account_ids, p_amounts);

  -- Integrators' events (migration 0043, ADR 048), after the wallets' locks (see
  -- webhooks_enqueue_money). Most postings find no endpoint: the endpoints table has a
  -- handful of rows, so this look costs a scan of one page.
  IF EXISTS (SELECT 1 FROM webhook_endpoints
              WHERE status = 'enabled' AND ('money.' || v_entry.kind::text) = ANY (event_types)) THEN
    PERFORM webhooks_enqueue_money(p_entry_id, v_entry.kind, v_entry.created_at,
                                   p_account_ids, p_amounts);
  END IF;
END $$;
