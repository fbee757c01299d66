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
--   CF103 Quick Pay recipient refused: MESSAGE is the error code, DETAIL a JSON object

-- Each customer's money out per kind and UTC day, kept as it happens: the daily limit
-- reads one row instead of summing the day's movements, which a busy customer has many
-- of. It always equals those sums (payouts not rejected); the tests check that.
CREATE TABLE "money_out_days" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"spent_minor" bigint NOT NULL,
	CONSTRAINT "money_out_days_pk" PRIMARY KEY("user_id","kind","day"),
	CONSTRAINT "money_out_days_kind" CHECK ("money_out_days"."kind" IN ('transfer', 'bill_payment', 'payout')),
	CONSTRAINT "money_out_days_not_negative" CHECK ("money_out_days"."spent_minor" >= 0)
);
--> statement-breakpoint
INSERT INTO money_out_days (user_id, kind, day, spent_minor)
SELECT sender_user_id, 'transfer', (created_at AT TIME ZONE 'UTC')::date, sum(amount_minor)
  FROM transfers GROUP BY 1, 3
UNION ALL
SELECT user_id, 'bill_payment', (created_at AT TIME ZONE 'UTC')::date, sum(amount_minor)
  FROM bill_payments GROUP BY 1, 3
UNION ALL
SELECT user_id, 'payout', (created_at AT TIME ZONE 'UTC')::date, sum(amount_minor)
  FROM payouts WHERE status <> 'rejected' GROUP BY 1, 3;
--> statement-breakpoint

-- journal_entries is append-only (no update, delete or truncate), and its lines and a
-- transfer's row are written by the same function right after the entry: these foreign
-- keys only re-checked that, at the price of a row lock on the new entry per line (as
-- with accounts, ADR 006). checkInvariants() looks for lines without their entry.
ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk";
--> statement-breakpoint
ALTER TABLE "transfers" DROP CONSTRAINT "transfers_entry_id_journal_entries_id_fk";
--> statement-breakpoint

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
-- and cannot both pass a limit only one of them fits, and counts the amount into the
-- day's total: a movement refused later (the balance is the ledger's check) rolls the
-- count back with it. p_daily_limit_minor_by_level[level] is the limit in the wallet's
-- minor units; NULL: the kind is not allowed at that level.
CREATE FUNCTION money_out_lock(
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
  INSERT INTO money_out_days AS d (user_id, kind, day, spent_minor)
  VALUES (p_user_id, p_kind, (now() AT TIME ZONE 'UTC')::date, p_amount_minor)
  ON CONFLICT (user_id, kind, day) DO UPDATE SET spent_minor = d.spent_minor + p_amount_minor
  RETURNING d.spent_minor INTO v_spent_minor;
  IF v_spent_minor > v_limit_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'daily_limit_exceeded',
      DETAIL = jsonb_build_object('spentMinor', (v_spent_minor - p_amount_minor)::text,
                                  'limitMinor', v_limit_minor::text)::text;
  END IF;
  RETURN QUERY SELECT v_sender.username::text, v_sender.level, v_sender.wallet_id,
                      v_sender.wallet_number::text, v_sender.currency::text;
END $$;
--> statement-breakpoint

-- Takes a movement that will not happen after all (a rejected payout) out of the total of
-- the day it was made.
CREATE FUNCTION money_out_uncount(
  p_user_id uuid, p_kind text, p_made_at timestamptz, p_amount_minor bigint
) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE money_out_days SET spent_minor = spent_minor - p_amount_minor
   WHERE user_id = p_user_id AND kind = p_kind
     AND day = (p_made_at AT TIME ZONE 'UTC')::date;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'money out was never counted';
  END IF;
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

-- "Alice Morgan" → "A*** M***": enough to recognise a customer, not to learn their name.
-- Names are masked in the queries that read them, so another customer's full name never
-- reaches the API for a Quick Pay, its preview or the lists that show it.
CREATE FUNCTION mask_name(p_name text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  -- One expression, so the planner inlines it into the query that calls it.
  SELECT regexp_replace(btrim(regexp_replace(p_name, '\s+', ' ', 'g')), '(\S)\S*', '\1***', 'g')
$$;
--> statement-breakpoint

-- The customer a sender typed, by their wallet's account number or their email (stored
-- lower-cased). Staff have no wallet and are never found.
CREATE FUNCTION quick_pay_recipient(p_account_number text, p_email text)
RETURNS TABLE (user_id uuid, masked_name text, wallet_id uuid, currency text)
LANGUAGE sql STABLE AS $$
  SELECT u.id, mask_name(u.username), a.id, a.currency::text
    FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
   WHERE u.role = 'customer'
     AND u.id = (SELECT owner_user_id FROM accounts WHERE number = p_account_number
                 UNION ALL
                 SELECT id FROM users WHERE email = p_email
                 LIMIT 1)
$$;
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
CREATE FUNCTION quick_pay(
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
    RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'recipient_not_found';
  END IF;
  IF v_recipient.user_id = p_sender_user_id THEN
    RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'own_account';
  END IF;
  IF v_recipient.currency <> p_currency THEN
    RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'currency_mismatch',
      DETAIL = jsonb_build_object('recipientCurrency', v_recipient.currency)::text;
  END IF;
  v_body := p_response_body || jsonb_build_object(
    'entryId', p_entry_id,
    'recipientMaskedName', v_recipient.masked_name,
    -- The same instant JavaScript's toISOString() would print.
    'createdAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));

  SELECT * INTO v_claim
    FROM idempotency_claim(p_idempotency_scope, p_idempotency_key, p_request_hash, 201, v_body);
  IF v_claim.is_claimed THEN
    PERFORM 1 FROM account_balances
      WHERE account_id IN (p_sender_wallet_id, v_recipient.wallet_id)
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
                        ARRAY[p_sender_wallet_id, v_recipient.wallet_id],
                        ARRAY[-p_amount_minor, p_amount_minor]);
    INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency,
                           note, created_at)
    VALUES (p_entry_id, p_sender_user_id, v_recipient.user_id, p_amount_minor, p_currency,
            p_note, now());
  END IF;
  RETURN QUERY SELECT v_claim.is_claimed, v_claim.request_hash, v_claim.response_status,
                      v_claim.response_body, v_recipient.user_id;
END $$;
