-- Money out in the database (ADR 009). Quick Pay made some seventeen round trips (session,
-- idempotency claim, two wallet locks, the checks, the limit sum, the posting, the transfer
-- row, two notifications, the stored answer), each parsed and planned again: about six
-- times pgbench's server CPU per transaction. Here the whole Quick Pay is one statement,
-- and the checks every money movement makes live in one function the TypeScript callers
-- share. The rules' numbers (limits per level) and all messages stay in TypeScript; these
-- functions apply them in PRODUCT.md's order.
-- Custom SQLSTATEs, mapped to error codes in src/features/wallet/money-out.ts:
--   CF101 money out refused: MESSAGE is the error code, DETAIL a JSON object with what
--         its message needs
--   CF102 step-up code already spent (wrong_code)

-- Claims an idempotency key for the current transaction, with the answer when the caller
-- knows it already (otherwise status 0 until idempotency_store), or answers with what is
-- stored under it. A concurrent claim of the same key waits on the primary key until the
-- first transaction ends: after a commit it reads the stored answer, after a rollback it
-- claims.
CREATE FUNCTION idempotency_claim(
  p_scope text, p_key text, p_request_hash text,
  p_response_status int DEFAULT 0, p_response_body jsonb DEFAULT 'null'
) RETURNS TABLE (is_claimed boolean, request_hash text, response_status int, response_body jsonb)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body)
  VALUES (p_scope, p_key, p_request_hash, p_response_status, p_response_body)
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    RETURN QUERY SELECT true, p_request_hash, p_response_status, p_response_body;
    RETURN;
  END IF;
  RETURN QUERY SELECT false, k.request_hash::text, k.response_status, k.response_body
                 FROM idempotency_keys k WHERE k.scope = p_scope AND k.key = p_key;
END $$;
--> statement-breakpoint

CREATE FUNCTION idempotency_store(p_scope text, p_key text, p_status int, p_body jsonb)
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE idempotency_keys SET response_status = p_status, response_body = p_body
   WHERE scope = p_scope AND key = p_key AND response_status = 0;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'idempotency key not claimed';
  END IF;
END $$;
--> statement-breakpoint

-- The checks of every money movement out of a customer's wallet, in PRODUCT.md's order:
-- frozen, verified email, level, daily limit (per kind and UTC day). It locks the wallet's
-- balance row first, so two movements of one customer are checked one after the other
-- and cannot both pass a limit only one of them fits. The balance is the ledger's check.
-- p_daily_limit_minor_by_level[level] is the limit in the wallet's minor units; NULL: the
-- kind is not allowed at that level.
CREATE FUNCTION money_out_lock(
  p_user_id uuid, p_kind text, p_amount_minor bigint, p_daily_limit_minor_by_level bigint[]
) RETURNS TABLE (username text, level smallint, wallet_id uuid, wallet_number text, currency text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_sender record;
  v_day_start timestamptz := date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
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
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'not_found';
  END IF;
  IF v_sender.frozen_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'account_frozen',
      DETAIL = jsonb_build_object('reason', v_sender.frozen_reason)::text;
  END IF;
  IF v_sender.email_verified_at IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'email_not_verified';
  END IF;
  v_limit_minor := p_daily_limit_minor_by_level[v_sender.level];
  IF v_limit_minor IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'level_too_low';
  END IF;
  IF p_kind = 'transfer' THEN
    SELECT coalesce(sum(t.amount_minor), 0) INTO v_spent_minor FROM transfers t
     WHERE t.sender_user_id = p_user_id AND t.created_at >= v_day_start;
  ELSIF p_kind = 'bill_payment' THEN
    SELECT coalesce(sum(p.amount_minor), 0) INTO v_spent_minor FROM bill_payments p
     WHERE p.user_id = p_user_id AND p.created_at >= v_day_start;
  ELSIF p_kind = 'payout' THEN
    SELECT coalesce(sum(p.amount_minor), 0) INTO v_spent_minor FROM payouts p
     WHERE p.user_id = p_user_id AND p.status <> 'rejected' AND p.created_at >= v_day_start;
  ELSE
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'unknown money-out kind ' || p_kind;
  END IF;
  IF v_spent_minor + p_amount_minor > v_limit_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'daily_limit_exceeded',
      DETAIL = jsonb_build_object('spentMinor', v_spent_minor::text,
                                  'limitMinor', v_limit_minor::text)::text;
  END IF;
  RETURN QUERY SELECT v_sender.username::text, v_sender.level, v_sender.wallet_id,
                      v_sender.wallet_number::text, v_sender.currency::text;
END $$;
--> statement-breakpoint

-- Spends a checked step-up code in the money movement's transaction: a TOTP step only
-- once and only forward, an emailed code once and before it expires.
CREATE FUNCTION step_up_spend(p_user_id uuid, p_code_id uuid, p_totp_step bigint)
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
    RAISE EXCEPTION USING ERRCODE = 'CF102', MESSAGE = 'wrong_code';
  END IF;
END $$;
--> statement-breakpoint

-- A whole Quick Pay, run as one statement (its own transaction): the idempotency claim
-- with its answer, both wallets locked in id order (as the ledger updates them, so
-- opposite transfers wait instead of deadlocking), the sender's checks, the step-up code
-- spent, one ledger entry and the transfer's row. A refusal raises, so nothing of it
-- stays, the key included; the caller stores the refusal under the key. The live events
-- are the caller's, after the commit: a NOTIFY here would hold a database-wide lock from
-- this commit's start to its end and line every Quick Pay up behind it (ADR 009).
-- p_response_body is the answer without what this function adds: entryId, and createdAt,
-- the transaction's time (now()), which the transfer's row records too.
CREATE FUNCTION quick_pay(
  p_idempotency_scope text, p_idempotency_key text, p_request_hash text,
  p_entry_id uuid, p_sender_user_id uuid, p_sender_wallet_id uuid,
  p_recipient_user_id uuid, p_recipient_wallet_id uuid,
  p_amount_minor bigint, p_currency text, p_memo text, p_note text,
  p_daily_limit_minor_by_level bigint[], p_step_up_code_id uuid, p_step_up_totp_step bigint,
  p_response_body jsonb
) RETURNS TABLE (is_claimed boolean, request_hash text, response_status int, response_body jsonb)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_body jsonb := p_response_body || jsonb_build_object(
    'entryId', p_entry_id,
    -- The same instant JavaScript's toISOString() would print.
    'createdAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
  v_claim record;
  v_sender_wallet_id uuid;
BEGIN
  SELECT * INTO v_claim
    FROM idempotency_claim(p_idempotency_scope, p_idempotency_key, p_request_hash, 201, v_body);
  IF v_claim.is_claimed THEN
    PERFORM 1 FROM account_balances
      WHERE account_id IN (p_sender_wallet_id, p_recipient_wallet_id)
      ORDER BY account_id FOR UPDATE;
    SELECT l.wallet_id INTO v_sender_wallet_id
      FROM money_out_lock(p_sender_user_id, 'transfer', p_amount_minor,
                          p_daily_limit_minor_by_level) l;
    IF v_sender_wallet_id <> p_sender_wallet_id THEN
      RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a customer keeps one wallet';
    END IF;
    IF p_step_up_code_id IS NOT NULL OR p_step_up_totp_step IS NOT NULL THEN
      PERFORM step_up_spend(p_sender_user_id, p_step_up_code_id, p_step_up_totp_step);
    END IF;
    PERFORM ledger_post(p_entry_id, 'transfer', p_memo, NULL, p_sender_user_id,
                        ARRAY[p_sender_wallet_id, p_recipient_wallet_id],
                        ARRAY[-p_amount_minor, p_amount_minor]);
    INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency,
                           note, created_at)
    VALUES (p_entry_id, p_sender_user_id, p_recipient_user_id, p_amount_minor, p_currency,
            p_note, now());
  END IF;
  RETURN QUERY SELECT v_claim.is_claimed, v_claim.request_hash, v_claim.response_status,
                      v_claim.response_body;
END $$;
