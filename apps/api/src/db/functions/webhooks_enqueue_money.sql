-- Integrators' money events (ADR 048): one event per customer wallet an entry moves, and
-- one delivery of it per enabled endpoint that subscribes to its type, written with the
-- entry so that an event exists exactly when its money moved. ledger_apply_lines calls it
-- after it has locked the entry's wallets: a later posting to the same wallet waits for
-- this one to commit before it draws its delivery ids, so per wallet the ids are in commit
-- order, which is the order the delivery job keeps.
CREATE OR REPLACE FUNCTION webhooks_enqueue_money(
  p_entry_id uuid, p_kind entry_kind, p_posted_at timestamptz,
  p_account_ids uuid[], p_amounts bigint[]
) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_type text := 'money.' || p_kind::text;
BEGIN
  WITH wallets AS (
    SELECT gen_random_uuid() AS event_id, a.id AS account_id, a.number, a.owner_user_id,
           a.currency, sum(line.amount)::bigint AS amount
      FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
      JOIN accounts a ON a.id = line.account_id
     WHERE a.kind = 'customer'
     GROUP BY a.id, a.number, a.owner_user_id, a.currency
    HAVING sum(line.amount) <> 0
  ), events AS (
    INSERT INTO webhook_events (id, type, entry_id, account_id, payload)
    SELECT w.event_id, v_type, p_entry_id, w.account_id, jsonb_build_object(
             'type', v_type,
             'timestamp', p_posted_at,
             'data', jsonb_build_object(
               'eventId', w.event_id,
               'entryId', p_entry_id,
               'kind', p_kind,
               'customerId', w.owner_user_id,
               'accountNumber', w.number,
               'amountMinor', w.amount::text,
               'currency', w.currency,
               'postedAt', p_posted_at))
      FROM wallets w
    RETURNING id, account_id
  )
  INSERT INTO webhook_deliveries (event_id, endpoint_id, account_id, next_attempt_at, give_up_at)
  SELECT ev.id, e.id, ev.account_id, now(), now() + interval '24 hours'
    FROM events ev CROSS JOIN webhook_endpoints e
   WHERE e.status = 'enabled' AND v_type = ANY (e.event_types)
   ORDER BY ev.account_id, e.id;
END $$;
