-- Account closure (issue #34 item 4, ADR 050). `users.closed_at` ends sign-in, sessions
-- and emails; `account_balances.is_closed` is the ledger's own copy on the wallet's row,
-- which every posting to the wallet locks, so a payment and a closure cannot both commit.
-- `personal_data_removed_at`: when the retention job removed the person's data.
-- `account_reopenings`: an admin's request to reopen, decided by a second admin.
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "personal_data_removed_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "users_closed_retention_idx" ON "users" USING btree ("closed_at") WHERE "closed_at" IS NOT NULL AND "personal_data_removed_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "account_balances" ADD COLUMN "is_closed" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION refuse_closed_wallet_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CF005', MESSAGE = 'the account is closed',
    DETAIL = NEW.account_id::text;
END $$;
--> statement-breakpoint
CREATE TRIGGER account_balances_refuse_closed BEFORE UPDATE OF balance_minor, held_minor ON account_balances
  FOR EACH ROW WHEN (OLD.is_closed AND NEW.is_closed) EXECUTE FUNCTION refuse_closed_wallet_change();
--> statement-breakpoint
CREATE TABLE "account_reopenings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"requested_by_user_id" uuid NOT NULL,
	"decided_by_user_id" uuid,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "account_reopenings_status_known" CHECK ("account_reopenings"."status" IN ('pending', 'approved', 'rejected', 'cancelled')),
	CONSTRAINT "account_reopenings_decider_is_not_requester" CHECK ("account_reopenings"."decided_by_user_id" IS NULL OR "account_reopenings"."decided_by_user_id" <> "account_reopenings"."requested_by_user_id" OR "account_reopenings"."status" = 'cancelled')
);
--> statement-breakpoint
ALTER TABLE "account_reopenings" ADD CONSTRAINT "account_reopenings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_reopenings" ADD CONSTRAINT "account_reopenings_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_reopenings" ADD CONSTRAINT "account_reopenings_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "account_reopenings_one_pending_idx" ON "account_reopenings" USING btree ("user_id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "account_reopenings_user_idx" ON "account_reopenings" USING btree ("user_id","created_at");
--> statement-breakpoint
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
  v_sender_wallet_id uuid;
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
    SELECT l.wallet_id INTO v_sender_wallet_id
      FROM money_out_lock(p_user_id => p_sender_user_id, p_kind => 'transfer',
                          p_amount_minor => p_amount_minor,
                          p_daily_limit_minor_by_level => p_daily_limit_minor_by_level) l;
    IF v_sender_wallet_id <> p_sender_wallet_id THEN
      RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a customer keeps one wallet';
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
