-- The money-out functions' refusals carry their machine code in HINT, not in MESSAGE
-- (issue #13.2): db/sql-errors.ts maps SQLSTATE + HINT to an error code, and MESSAGE is
-- left to people reading logs. quick_pay calls the functions it builds on with named
-- arguments. The current body of every function is in src/db/functions/<name>.sql.

-- The checks of every money movement out of a customer's wallet, in PRODUCT.md's order:
-- frozen, verified email, level, daily limit (per kind and UTC day). It locks the wallet's
-- balance row first, so two movements of one customer are checked one after the other
-- and cannot both pass a limit only one of them fits, and counts the amount into the
-- day's total: a movement refused later (the balance is the ledger's check) rolls the
-- count back with it. p_daily_limit_minor_by_level[level] is the limit in the wallet's
-- minor units; NULL: the kind is not allowed at that level.
CREATE OR REPLACE FUNCTION money_out_lock(
  p_user_id uuid, p_kind text, p_amount_minor bigint, p_daily_limit_minor_by_level bigint[]
) RETURNS TABLE (username text, level smallint, wallet_id uuid, wallet_number text, currency text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_sender record;
  v_limit_minor bigint;
  v_spent_minor bigint;
BEGIN
  SELECT u.username, u.level, u.email_verified_at, u.frozen_at, u.frozen_reason,
         a.id AS wallet_id, a.number AS wallet_number, a.currency
    INTO v_sender
    FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
    JOIN account_balances b ON b.account_id = a.id
   WHERE u.id = p_user_id AND u.role = 'customer'
     FOR UPDATE OF b;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: no such customer wallet',
      HINT = 'not_found';
  END IF;
  IF v_sender.frozen_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: the account is frozen',
      HINT = 'account_frozen',
      DETAIL = jsonb_build_object('reason', v_sender.frozen_reason)::text;
  END IF;
  IF v_sender.email_verified_at IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: the email is not verified',
      HINT = 'email_not_verified';
  END IF;
  v_limit_minor := p_daily_limit_minor_by_level[v_sender.level];
  IF v_limit_minor IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: the level is too low',
      HINT = 'level_too_low';
  END IF;
  INSERT INTO money_out_days AS d (user_id, kind, day, spent_minor)
  VALUES (p_user_id, p_kind, (now() AT TIME ZONE 'UTC')::date, p_amount_minor)
  ON CONFLICT (user_id, kind, day) DO UPDATE SET spent_minor = d.spent_minor + p_amount_minor
  RETURNING d.spent_minor INTO v_spent_minor;
  IF v_spent_minor > v_limit_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: over the daily limit',
      HINT = 'daily_limit_exceeded',
      DETAIL = jsonb_build_object('spentMinor', (v_spent_minor - p_amount_minor)::text,
                                  'limitMinor', v_limit_minor::text)::text;
  END IF;
  RETURN QUERY SELECT v_sender.username::text, v_sender.level, v_sender.wallet_id,
                      v_sender.wallet_number::text, v_sender.currency::text;
END $$;
--> statement-breakpoint

-- Spends a checked step-up code in the money movement's transaction: a TOTP step only
-- once and only forward, an emailed code once and before it expires.
CREATE OR REPLACE FUNCTION step_up_spend(p_user_id uuid, p_code_id uuid, p_totp_step bigint)
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF p_totp_step IS NOT NULL THEN
    UPDATE users SET totp_last_used_step = p_totp_step
     WHERE id = p_user_id AND (totp_last_used_step IS NULL OR totp_last_used_step < p_totp_step);
  ELSE
    UPDATE step_up_codes SET consumed_at = now()
     WHERE id = p_code_id AND user_id = p_user_id AND consumed_at IS NULL AND expires_at > now();
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF102', MESSAGE = 'step-up code already spent or expired',
      HINT = 'wrong_code';
  END IF;
END $$;
--> statement-breakpoint

-- A whole Quick Pay, run as one statement (its own transaction): the idempotency claim
-- with its answer, the recipient (found, not the sender, same currency), both wallets
-- locked in id order (as the ledger updates them, so opposite transfers wait instead of
-- deadlocking), the sender's checks, the step-up code spent, one ledger entry and the
-- transfer's row. A refusal raises, so nothing of it stays, the key included; the caller
-- stores the refusal under the key. The live events are the caller's, after the commit:
-- a NOTIFY here would hold a database-wide lock from this commit's start to its end and
-- line every Quick Pay up behind it (ADR 009). The recipient is given by account number
-- or email (the other NULL). p_response_body is the answer without what this function
-- adds: entryId, recipientMaskedName and createdAt, the transaction's time (now()), which
-- the transfer's row records too. It returns the recipient's user id for the events.
CREATE OR REPLACE FUNCTION quick_pay(
  p_idempotency_scope text, p_idempotency_key text, p_request_hash text,
  p_entry_id uuid, p_sender_user_id uuid, p_sender_wallet_id uuid,
  p_recipient_account_number text, p_recipient_email text,
  p_amount_minor bigint, p_currency text, p_memo text, p_note text,
  p_daily_limit_minor_by_level bigint[], p_step_up_code_id uuid, p_step_up_totp_step bigint,
  p_response_body jsonb
) RETURNS TABLE (is_claimed boolean, request_hash text, response_status int, response_body jsonb,
                 recipient_user_id uuid)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_recipient record;
  v_body jsonb;
  v_claim record;
  v_sender_wallet_id uuid;
BEGIN
  SELECT * INTO v_recipient FROM quick_pay_recipient(p_recipient_account_number, p_recipient_email);
  IF NOT FOUND THEN
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
    PERFORM 1 FROM account_balances
      WHERE account_id IN (p_sender_wallet_id, v_recipient.wallet_id)
      ORDER BY account_id FOR UPDATE;
    SELECT l.wallet_id INTO v_sender_wallet_id
      FROM money_out_lock(p_user_id => p_sender_user_id, p_kind => 'transfer',
                          p_amount_minor => p_amount_minor,
                          p_daily_limit_minor_by_level => p_daily_limit_minor_by_level) l;
    IF v_sender_wallet_id <> p_sender_wallet_id THEN
      RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a customer keeps one wallet';
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
