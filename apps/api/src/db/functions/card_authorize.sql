CREATE OR REPLACE FUNCTION card_authorize(
  p_authorization_id uuid, p_hold_id uuid, p_processor_id text, p_card_token text,
  p_amount_minor bigint, p_currency text, p_merchant text
) RETURNS TABLE (authorization_id uuid, user_id uuid, status text, decline_reason text,
                 is_replay boolean)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_card record;
  v_known record;
  v_week date := date_trunc('week', now() AT TIME ZONE 'UTC')::date;
  v_spent_minor bigint;
  v_available_minor bigint;
  v_account_frozen_at timestamptz;
  v_reason text;
BEGIN
  -- The card row lock orders this card's authorizations, freezes and week counts: a freeze
  -- that committed is seen by every authorization that locks after it.
  SELECT c.id, c.user_id, c.account_id, c.status, c.currency, c.weekly_limit_minor,
         c.spent_week_start, c.spent_minor
    INTO v_card FROM cards c WHERE c.issuer_token = p_card_token FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT NULL::uuid, NULL::uuid, 'declined'::text, 'unknown_card'::text, false;
    RETURN;
  END IF;
  -- A retry of an authorization already answered gets that answer and changes nothing. It
  -- is looked for under the card's lock: a twin that held it has committed by now.
  SELECT a.id, a.user_id, a.status::text AS status, a.decline_reason INTO v_known
    FROM card_authorizations a WHERE a.processor_id = p_processor_id;
  IF FOUND THEN
    RETURN QUERY SELECT v_known.id, v_known.user_id, v_known.status, v_known.decline_reason, true;
    RETURN;
  END IF;
  SELECT b.balance_minor - b.held_minor INTO v_available_minor
    FROM account_balances b WHERE b.account_id = v_card.account_id AND b.bucket = 0 FOR UPDATE;
  -- Read after the locks, in a statement of its own: an account freeze that committed while
  -- this waited for them is seen.
  SELECT u.frozen_at INTO v_account_frozen_at FROM users u WHERE u.id = v_card.user_id;
  v_spent_minor := CASE WHEN v_card.spent_week_start = v_week THEN v_card.spent_minor ELSE 0 END;
  v_reason := CASE
    WHEN v_card.status = 'frozen' THEN 'card_frozen'
    WHEN v_card.status <> 'issued' THEN 'card_not_active'
    WHEN v_account_frozen_at IS NOT NULL THEN 'account_frozen'
    WHEN p_currency <> v_card.currency THEN 'currency_mismatch'
    WHEN v_spent_minor + p_amount_minor > v_card.weekly_limit_minor THEN 'weekly_limit_exceeded'
    WHEN v_available_minor < p_amount_minor THEN 'insufficient_funds'
  END;
  IF v_reason IS NULL THEN
    PERFORM ledger_hold(p_hold_id => p_hold_id, p_account_id => v_card.account_id,
                        p_amount => p_amount_minor, p_reason => 'Card purchase at ' || p_merchant);
    UPDATE cards SET spent_week_start = v_week, spent_minor = v_spent_minor + p_amount_minor
     WHERE id = v_card.id;
  END IF;
  INSERT INTO card_authorizations (id, processor_id, card_id, user_id, account_id, amount_minor,
                                   currency, merchant, status, decline_reason, hold_id, week_start,
                                   decided_at)
  VALUES (p_authorization_id, p_processor_id, v_card.id, v_card.user_id, v_card.account_id,
          p_amount_minor, p_currency, p_merchant,
          CASE WHEN v_reason IS NULL THEN 'approved' ELSE 'declined' END::card_authorization_status,
          v_reason, CASE WHEN v_reason IS NULL THEN p_hold_id END, v_week, clock_timestamp())
  ON CONFLICT (processor_id) DO NOTHING;
  IF NOT FOUND THEN
    -- The same processor id, sent at once for another card: refused, and the hold rolls back.
    RAISE EXCEPTION USING ERRCODE = 'CF110', MESSAGE = 'authorization id used for another card',
      HINT = 'authorization_conflict';
  END IF;
  RETURN QUERY SELECT p_authorization_id, v_card.user_id,
                      CASE WHEN v_reason IS NULL THEN 'approved' ELSE 'declined' END, v_reason,
                      false;
END $$;
