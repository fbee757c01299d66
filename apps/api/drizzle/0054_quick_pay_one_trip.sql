-- Quick Pay in one round trip (issue #36 item 3, ADR 057): the session look-up and its
-- request-limit spend run in the payment's statement, whose refusals are caught inside it
-- (quick_pay_caught) so the spend outlives them. Its two notifications and the
-- recipient's email are written in English and put into each reader's language when
-- read or sent: the statement does not know the recipient, or their language, before it
-- runs. Every other notification is still written in its reader's language.
ALTER TABLE "notifications" ADD COLUMN "is_english_source" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "send_in_language" text;
--> statement-breakpoint
-- It takes a new parameter: the old signature goes, or a call could pick either.
DROP FUNCTION notify_user(uuid, uuid, text, text, text, uuid, text, text, boolean);
--> statement-breakpoint
-- A notification and, when it goes by email, its email, in one statement of the caller's
-- transaction (platform/notifications.ts). An email that is not about security goes only
-- to people who left the switch on; the address is read here, so callers need not. Quick
-- Pay calls it inside its own single statement (ADR 014), before it knows who the
-- recipient is or which language they read: with p_is_english_source its text, subject
-- and body are English, put into the reader's language when read (the notification) or
-- sent (the email, in the recipient's language read here; NULL is English) (ADR 057).
CREATE FUNCTION notify_user(
  p_id uuid, p_user_id uuid, p_kind text, p_text text, p_link text,
  p_email_id uuid, p_email_subject text, p_email_body text, p_is_email_always boolean,
  p_is_english_source boolean DEFAULT false
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (id, user_id, kind, text, link, is_english_source)
  VALUES (p_id, p_user_id, p_kind, p_text, p_link, p_is_english_source);
  IF p_email_id IS NOT NULL THEN
    INSERT INTO outbox_emails (id, to_address, subject, text_body, send_in_language)
    SELECT p_email_id, u.email, p_email_subject, p_email_body,
           CASE WHEN p_is_english_source THEN coalesce(u.language, u.sign_in_language, 'en') END
      FROM users u WHERE u.id = p_user_id AND (p_is_email_always OR u.wants_notification_emails);
  END IF;
END $$;
--> statement-breakpoint
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
