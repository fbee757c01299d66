-- Virtual cards (issue #17, ADR 016): the customer's cards as Coffer knows them (the
-- issuer's token, last four, expiry and holder, never a full number or security code),
-- the sandbox issuer's own table (its numbers, as a processor would keep them), and the
-- processor's authorizations, each approved one backed by a ledger hold.
ALTER TYPE "public"."account_kind" ADD VALUE IF NOT EXISTS 'card_clearing';--> statement-breakpoint
CREATE TYPE "public"."card_status" AS ENUM('requested', 'issued', 'frozen', 'declined', 'closed');--> statement-breakpoint
CREATE TYPE "public"."card_authorization_status" AS ENUM('approved', 'declined', 'settled', 'reversed', 'expired');--> statement-breakpoint
CREATE TABLE "cards" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"status" "card_status" DEFAULT 'requested' NOT NULL,
	"issuer_token" text,
	"last_four" char(4),
	"expiry_month" smallint,
	"expiry_year" smallint,
	"holder_name" text NOT NULL,
	"currency" char(3) NOT NULL,
	"fee_minor" bigint NOT NULL,
	"fee_hold_id" uuid,
	"fee_entry_id" uuid,
	"weekly_limit_minor" bigint NOT NULL,
	"spent_week_start" date,
	"spent_minor" bigint DEFAULT 0 NOT NULL,
	"reason" text,
	"decided_by_user_id" uuid,
	"decided_at" timestamp with time zone,
	"frozen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cards_issuer_token_unique" UNIQUE("issuer_token"),
	CONSTRAINT "cards_fee_not_negative" CHECK ("cards"."fee_minor" >= 0),
	CONSTRAINT "cards_spent_not_negative" CHECK ("cards"."spent_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- One open card (requested, issued or frozen) per customer: two requests at once, one is refused here.
CREATE UNIQUE INDEX "cards_one_open_per_user" ON "cards" USING btree ("user_id") WHERE "cards"."status" IN ('requested', 'issued', 'frozen');--> statement-breakpoint
CREATE INDEX "cards_user_idx" ON "cards" USING btree ("user_id","created_at" DESC);--> statement-breakpoint
CREATE INDEX "cards_queue_idx" ON "cards" USING btree ("created_at") WHERE "cards"."status" = 'requested';--> statement-breakpoint
CREATE TABLE "card_authorizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"processor_id" text NOT NULL,
	"card_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"merchant" text NOT NULL,
	"status" "card_authorization_status" NOT NULL,
	"decline_reason" text,
	"hold_id" uuid,
	"entry_id" uuid,
	"week_start" date NOT NULL,
	"settlement_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "card_authorizations_processor_id_unique" UNIQUE("processor_id"),
	CONSTRAINT "card_authorizations_settlement_id_unique" UNIQUE("settlement_id"),
	CONSTRAINT "card_authorizations_amount_positive" CHECK ("card_authorizations"."amount_minor" > 0),
	CONSTRAINT "card_authorizations_approved_has_hold" CHECK ("card_authorizations"."status" = 'declined' OR "card_authorizations"."hold_id" IS NOT NULL)
);
--> statement-breakpoint
ALTER TABLE "card_authorizations" ADD CONSTRAINT "card_authorizations_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_authorizations_card_idx" ON "card_authorizations" USING btree ("card_id","created_at" DESC);--> statement-breakpoint
CREATE TABLE "sandbox_issuer_cards" (
	"token" text PRIMARY KEY NOT NULL,
	"reference" uuid NOT NULL,
	"number" char(16) NOT NULL,
	"security_code" char(3) NOT NULL,
	"expiry_month" smallint NOT NULL,
	"expiry_year" smallint NOT NULL,
	"holder_name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_issuer_cards_reference_unique" UNIQUE("reference"),
	CONSTRAINT "sandbox_issuer_cards_number_unique" UNIQUE("number")
);
--> statement-breakpoint

-- Decides one card authorization in one statement: the card row lock, the wallet lock,
-- the checks (card issued and not frozen, account not frozen, currency, the week's limit,
-- the available balance) and, when approved, the ledger hold and the week's count. An
-- answer, approved or declined, is kept under the processor's id, so a retry gets it.
CREATE OR REPLACE FUNCTION card_authorize(
  p_authorization_id uuid, p_hold_id uuid, p_processor_id text, p_card_token text,
  p_amount_minor bigint, p_currency text, p_merchant text
) RETURNS TABLE (authorization_id uuid, user_id uuid, status text, decline_reason text,
                 is_replay boolean)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
