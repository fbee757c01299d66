-- quick_pay for a statement that has already done something that must outlive a refused
-- payment: the session look-up's request-limit spend (ADR 057, Quick Pay in one round
-- trip). It pays only when p_may_pay (the session let the route run and its limit had a
-- request left); a refusal quick_pay raises (SQLSTATE class CF, db/sql-errors.ts) is
-- caught and answered as data, so only the payment's own work rolls back (its
-- subtransaction) and the caller's spend commits. Any other error is raised as it is.
-- It checks nothing itself: every rule stays in quick_pay and what it calls.
CREATE FUNCTION quick_pay_caught(
  p_may_pay boolean,
  p_idempotency_scope text, p_idempotency_key text, p_request_hash text,
  p_entry_id uuid, p_sender_user_id uuid, p_sender_wallet_id uuid,
  p_recipient_account_number text, p_recipient_email text,
  p_amount_minor bigint, p_currency text, p_memo text, p_note text,
  p_daily_limit_minor_by_level bigint[], p_step_up_code_id uuid, p_step_up_totp_step bigint,
  p_response_body jsonb, p_recipient_lookups_key_hash text, p_recipient_lookups_max int,
  p_recipient_lookups_window_ms bigint
) RETURNS TABLE (is_attempted boolean, is_claimed boolean, request_hash text,
                 response_status int, response_body jsonb, recipient_user_id uuid,
                 refused_sql_state text, refused_message text, refused_hint text,
                 refused_detail text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_paid record;
  v_sql_state text;
  v_message text;
  v_hint text;
  v_detail text;
BEGIN
  IF p_may_pay IS NOT TRUE THEN
    RETURN QUERY SELECT false, NULL::boolean, NULL::text, NULL::int, NULL::jsonb, NULL::uuid,
                        NULL::text, NULL::text, NULL::text, NULL::text;
    RETURN;
  END IF;
  BEGIN
    SELECT * INTO v_paid
      FROM quick_pay(
        p_idempotency_scope => p_idempotency_scope, p_idempotency_key => p_idempotency_key,
        p_request_hash => p_request_hash, p_entry_id => p_entry_id,
        p_sender_user_id => p_sender_user_id, p_sender_wallet_id => p_sender_wallet_id,
        p_recipient_account_number => p_recipient_account_number,
        p_recipient_email => p_recipient_email, p_amount_minor => p_amount_minor,
        p_currency => p_currency, p_memo => p_memo, p_note => p_note,
        p_daily_limit_minor_by_level => p_daily_limit_minor_by_level,
        p_step_up_code_id => p_step_up_code_id, p_step_up_totp_step => p_step_up_totp_step,
        p_response_body => p_response_body,
        p_recipient_lookups_key_hash => p_recipient_lookups_key_hash,
        p_recipient_lookups_max => p_recipient_lookups_max,
        p_recipient_lookups_window_ms => p_recipient_lookups_window_ms);
  EXCEPTION WHEN OTHERS THEN
    IF left(SQLSTATE, 2) <> 'CF' THEN
      RAISE;
    END IF;
    GET STACKED DIAGNOSTICS v_sql_state = RETURNED_SQLSTATE, v_message = MESSAGE_TEXT,
                            v_hint = PG_EXCEPTION_HINT, v_detail = PG_EXCEPTION_DETAIL;
    RETURN QUERY SELECT true, NULL::boolean, NULL::text, NULL::int, NULL::jsonb, NULL::uuid,
                        v_sql_state, v_message, nullif(v_hint, ''), nullif(v_detail, '');
    RETURN;
  END;
  RETURN QUERY SELECT true, v_paid.is_claimed, v_paid.request_hash, v_paid.response_status,
                      v_paid.response_body, v_paid.recipient_user_id,
                      NULL::text, NULL::text, NULL::text, NULL::text;
END $$;
