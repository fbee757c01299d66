-- A whole Quick Pay, run as one statement (its own transaction), out of the sender's wallet
-- p_sender_wallet_id (any of their own, migration 0051): the idempotency claim
-- with its answer, both wallets locked in id order (as the ledger updates them, so
-- opposite transfers wait instead of deadlocking), every check in the order the API
-- answers them (ADR 019): the sender's (money_out_lock: frozen, verified email, level,
-- daily limit), the available balance, the customer's recipient look-ups left, then the
-- recipient (found, not the sender, same currency); the step-up code spent, one ledger
-- entry and the transfer's row. A refusal raises, so nothing of it stays, the key
-- included; the caller stores the refusal under the key and counts a refused recipient
-- against the look-ups (p_recipient_lookups_*: attempt_counters' row for them). The live
-- events are the caller's, after the commit: a NOTIFY here would hold a database-wide
-- lock from this commit's start to its end and line every Quick Pay up behind it (ADR
-- 009). The recipient is given by account number or email (the other NULL).
-- p_response_body is the answer without what this function adds: entryId,
-- recipientMaskedName and createdAt, the transaction's time (now()), which the transfer's
-- row records too. It returns the recipient's user id for the events.
CREATE FUNCTION quick_pay(
  p_idempotency_scope text, p_idempotency_key text, p_request_hash text,
  p_entry_id uuid, p_sender_user_id uuid, p_sender_wallet_id uuid,
  p_recipient_account_number text, p_recipient_email text,
  p_amount_minor bigint, p_currency text, p_memo text, p_note text,
  p_daily_limit_minor_by_level bigint[], p_step_up_code_id uuid, p_step_up_totp_step bigint,
  p_response_body jsonb, p_recipient_lookups_key_hash text, p_recipient_lookups_max int,
  p_recipient_lookups_window_ms bigint
) RETURNS TABLE (is_claimed boolean, request_hash text, response_status int, response_body jsonb,
                 recipient_user_id uuid)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_recipient record;
  v_body jsonb;
  v_claim record;
  v_sender_currency text;
BEGIN
  SELECT * INTO v_recipient FROM quick_pay_recipient(p_recipient_account_number, p_recipient_email);
  v_body := p_response_body || jsonb_build_object(
    'entryId', p_entry_id,
    'recipientMaskedName', v_recipient.masked_name,
    -- The same instant JavaScript's toISOString() would print.
    'createdAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));

  SELECT * INTO v_claim
    FROM idempotency_claim(p_scope => p_idempotency_scope, p_key => p_idempotency_key,
                           p_request_hash => p_request_hash, p_response_status => 201,
                           p_response_body => v_body);
  IF v_claim.is_claimed THEN
    -- A recipient not found locks the sender's wallet only (IN ignores the NULL).
    PERFORM 1 FROM account_balances
      WHERE account_id IN (p_sender_wallet_id, v_recipient.wallet_id)
      ORDER BY account_id FOR UPDATE;
    -- The wallet the customer chose, theirs or not found; the limits came in its currency.
    SELECT l.currency INTO v_sender_currency
      FROM money_out_lock(p_user_id => p_sender_user_id, p_kind => 'transfer',
                          p_amount_minor => p_amount_minor,
                          p_daily_limit_minor_by_level => p_daily_limit_minor_by_level,
                          p_wallet_id => p_sender_wallet_id) l;
    IF v_sender_currency <> p_currency THEN
      RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a wallet keeps its currency';
    END IF;
    -- ledger_post refuses it too; asked here so that it is answered before the recipient.
    IF (SELECT sum(b.balance_minor - b.held_minor) FROM account_balances b
         WHERE b.account_id = p_sender_wallet_id) < p_amount_minor THEN
      RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
        DETAIL = p_sender_wallet_id::text;
    END IF;
    -- key_hash is char(64): compared with the text parameter as it is, the column would be
    -- cast to text for every row and its primary key left unused (a scan of the table).
    IF EXISTS (SELECT 1 FROM attempt_counters c
                WHERE c.key_hash = p_recipient_lookups_key_hash::char(64)
                  AND c.attempt_count >= p_recipient_lookups_max
                  AND c.window_started_at > now() - p_recipient_lookups_window_ms * interval '1 millisecond') THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'no recipient look-ups left',
        HINT = 'too_many_attempts';
    END IF;
    -- A recipient whose account closed after the look-up above is refused as one never
    -- found: read again under the wallet's lock, which the closure takes too (ADR 050).
    IF v_recipient.user_id IS NULL
       OR EXISTS (SELECT 1 FROM account_balances
                   WHERE account_id = v_recipient.wallet_id AND bucket = 0 AND is_closed) THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'no such recipient',
        HINT = 'recipient_not_found';
    END IF;
    IF v_recipient.user_id = p_sender_user_id THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'the recipient is the sender',
        HINT = 'own_account';
    END IF;
    IF v_recipient.currency <> p_currency THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'the recipient''s wallet is in another currency',
        HINT = 'currency_mismatch',
        DETAIL = jsonb_build_object('recipientCurrency', v_recipient.currency)::text;
    END IF;
    IF p_step_up_code_id IS NOT NULL OR p_step_up_totp_step IS NOT NULL THEN
      PERFORM step_up_spend(p_user_id => p_sender_user_id, p_code_id => p_step_up_code_id,
                            p_totp_step => p_step_up_totp_step);
    END IF;
    PERFORM ledger_post(p_entry_id => p_entry_id, p_kind => 'transfer', p_memo => p_memo,
                        p_idempotency_key => NULL, p_actor_user_id => p_sender_user_id,
                        p_account_ids => ARRAY[p_sender_wallet_id, v_recipient.wallet_id],
                        p_amounts => ARRAY[-p_amount_minor, p_amount_minor]);
    INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency,
                           note, created_at)
    VALUES (p_entry_id, p_sender_user_id, v_recipient.user_id, p_amount_minor, p_currency,
            p_note, now());
  END IF;
  RETURN QUERY SELECT v_claim.is_claimed, v_claim.request_hash, v_claim.response_status,
                      v_claim.response_body, v_recipient.user_id;
END $$;
