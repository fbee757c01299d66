-- Money out of a wallet the customer chooses (issue #33, ADR 052's amendment): the day's
-- totals that the daily limits read are kept per currency, as the limits are; every total
-- so far was counted out of its customer's main wallet, so it takes that wallet's currency.
ALTER TABLE "money_out_days" ADD COLUMN "currency" char(3);--> statement-breakpoint
UPDATE "money_out_days" d SET "currency" = a."currency"
  FROM "accounts" a
 WHERE a."owner_user_id" = d."user_id" AND a."kind" = 'customer' AND a."is_main";--> statement-breakpoint
ALTER TABLE "money_out_days" ALTER COLUMN "currency" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "money_out_days" DROP CONSTRAINT "money_out_days_pk";--> statement-breakpoint
ALTER TABLE "money_out_days" ADD CONSTRAINT "money_out_days_pk" PRIMARY KEY ("user_id","currency","kind","day");--> statement-breakpoint
-- Both take a new parameter: the old signatures go, or a call could pick either.
DROP FUNCTION money_out_lock(uuid, text, bigint, bigint[]);--> statement-breakpoint
DROP FUNCTION money_out_uncount(uuid, text, timestamptz, bigint);--> statement-breakpoint
-- The checks of every money movement out of a customer's wallet, in PRODUCT.md's order:
-- frozen, verified email, level, daily limit (per kind, currency and UTC day). It locks
-- the wallet's balance row first, so two movements out of one wallet are checked one after
-- the other and cannot both pass a limit only one of them fits, and counts the amount into
-- the day's total: a movement refused later (the balance is the ledger's check) rolls the
-- count back with it. p_daily_limit_minor_by_level[level] is the limit in the wallet's
-- minor units; NULL: the kind is not allowed at that level. Money goes out of p_wallet_id,
-- which must be the customer's own wallet (another's is not found), or out of their main
-- wallet when it is NULL (migration 0051: the customer chooses among their wallets). A
-- limit is a currency's (COFFER_LIMITS), so the day's totals are kept per currency: one
-- wallet per currency makes that per wallet too.
CREATE FUNCTION money_out_lock(
  p_user_id uuid, p_kind text, p_amount_minor bigint, p_daily_limit_minor_by_level bigint[],
  p_wallet_id uuid DEFAULT NULL
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
                                AND (a.id = p_wallet_id OR (p_wallet_id IS NULL AND a.is_main))
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
  INSERT INTO money_out_days AS d (user_id, currency, kind, day, spent_minor)
  VALUES (p_user_id, v_sender.currency, p_kind, (now() AT TIME ZONE 'UTC')::date, p_amount_minor)
  -- By the key's name: the output column `currency` would make its column list ambiguous.
  ON CONFLICT ON CONSTRAINT money_out_days_pk DO UPDATE SET spent_minor = d.spent_minor + p_amount_minor
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
-- Takes a movement that will not happen after all (a rejected payout) out of the total of
-- the day it was made, in the currency it was counted in.
CREATE FUNCTION money_out_uncount(
  p_user_id uuid, p_kind text, p_made_at timestamptz, p_amount_minor bigint, p_currency text
) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE money_out_days SET spent_minor = spent_minor - p_amount_minor
   WHERE user_id = p_user_id AND currency = p_currency::char(3) AND kind = p_kind
     AND day = (p_made_at AT TIME ZONE 'UTC')::date;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'money out was never counted';
  END IF;
END $$;
--> statement-breakpoint
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
CREATE OR REPLACE FUNCTION quick_pay(
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
