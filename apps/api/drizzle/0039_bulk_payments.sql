-- Bulk payments from a CSV file (issue #32 item 3, ADR 044). A file is checked whole at
-- upload and kept as `checked` with one row a line; nothing is paid until the customer
-- confirms its total with a step-up code (`paying`); a worker then pays its lines in
-- batches, each line at most once (the ledger's idempotency key `bulk:<id>:<line>`), and
-- marks the file `done` when no line is left pending.
ALTER TYPE "public"."step_up_purpose" ADD VALUE IF NOT EXISTS 'bulk_payment';
--> statement-breakpoint
CREATE TABLE "bulk_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"wallet_id" uuid NOT NULL,
	"currency" char(3) NOT NULL,
	"status" text DEFAULT 'checked' NOT NULL,
	"line_count" integer NOT NULL,
	"total_minor" bigint NOT NULL,
	"paid_count" integer DEFAULT 0 NOT NULL,
	"refused_count" integer DEFAULT 0 NOT NULL,
	"paid_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_payments_status_known" CHECK ("bulk_payments"."status" IN ('checked', 'paying', 'done')),
	CONSTRAINT "bulk_payments_total_positive" CHECK ("bulk_payments"."total_minor" > 0),
	CONSTRAINT "bulk_payments_line_count_range" CHECK ("bulk_payments"."line_count" BETWEEN 1 AND 10000),
	CONSTRAINT "bulk_payments_counts_fit" CHECK ("bulk_payments"."paid_count" + "bulk_payments"."refused_count" <= "bulk_payments"."line_count")
);
--> statement-breakpoint
CREATE TABLE "bulk_payment_lines" (
	"bulk_payment_id" uuid NOT NULL,
	"line_number" integer NOT NULL,
	"recipient_user_id" uuid NOT NULL,
	"recipient_wallet_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"reference" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"refusal_reason" text,
	"entry_id" uuid,
	CONSTRAINT "bulk_payment_lines_bulk_payment_id_line_number_pk" PRIMARY KEY("bulk_payment_id","line_number"),
	CONSTRAINT "bulk_payment_lines_status_known" CHECK ("bulk_payment_lines"."status" IN ('pending', 'paid', 'refused')),
	CONSTRAINT "bulk_payment_lines_amount_positive" CHECK ("bulk_payment_lines"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "bulk_payments" ADD CONSTRAINT "bulk_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "bulk_payment_lines" ADD CONSTRAINT "bulk_payment_lines_bulk_payment_id_bulk_payments_id_fk" FOREIGN KEY ("bulk_payment_id") REFERENCES "public"."bulk_payments"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "bulk_payments_user_created_idx" ON "bulk_payments" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "bulk_payments_paying_idx" ON "bulk_payments" USING btree ("confirmed_at") WHERE "bulk_payments"."status" = 'paying';
--> statement-breakpoint
-- Pays claimed lines of one bulk payment file (ADR 044) in one statement, instead of
-- several round trips a line. The caller claimed the lines (FOR UPDATE SKIP LOCKED) and
-- locked the wallets, the sender's included, so the sender's available balance read once
-- here stays true as the lines spend it: a line it no longer covers is marked refused with
-- the reason and the next goes on, with no subtransaction a line (ledger_post still refuses
-- an overdraft, which would end the whole batch). Any error ends the whole batch. A line's
-- entry carries the idempotency key `bulk:<file>:<line>`: posted before (a replay), it is
-- marked paid with that entry and no second transfers row. The transfers row is dated at
-- the file's confirmation, the day its total was counted against the limit.
CREATE FUNCTION bulk_pay_lines(p_bulk_payment_id uuid, p_line_numbers int[])
RETURNS TABLE (line_number int, is_paid boolean, amount_minor bigint, recipient_user_id uuid)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_file record;
  v_line record;
  v_available_minor bigint;
  v_entry_id uuid;
  v_is_replay boolean;
BEGIN
  SELECT b.user_id, b.wallet_id, b.currency, b.confirmed_at INTO v_file
    FROM bulk_payments b WHERE b.id = p_bulk_payment_id;
  SELECT sum(a.balance_minor - a.held_minor) INTO v_available_minor
    FROM account_balances a WHERE a.account_id = v_file.wallet_id;
  FOR v_line IN
    SELECT l.line_number, l.recipient_user_id, l.recipient_wallet_id, l.amount_minor, l.reference
      FROM bulk_payment_lines l
     WHERE l.bulk_payment_id = p_bulk_payment_id AND l.line_number = ANY (p_line_numbers)
       AND l.status = 'pending'
     ORDER BY l.line_number
  LOOP
    is_paid := v_line.amount_minor <= v_available_minor;
    IF is_paid THEN
      SELECT p.entry_id, p.is_replay INTO v_entry_id, v_is_replay
        FROM ledger_post(p_entry_id => gen_random_uuid(), p_kind => 'transfer',
                         p_memo => coalesce(nullif(v_line.reference, ''), 'Bulk payment'),
                         p_idempotency_key => 'bulk:' || p_bulk_payment_id || ':' || v_line.line_number,
                         p_actor_user_id => v_file.user_id,
                         p_account_ids => ARRAY[v_file.wallet_id, v_line.recipient_wallet_id],
                         p_amounts => ARRAY[-v_line.amount_minor, v_line.amount_minor]) p;
      IF NOT v_is_replay THEN
        v_available_minor := v_available_minor - v_line.amount_minor;
        INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor,
                               currency, note, created_at)
        VALUES (v_entry_id, v_file.user_id, v_line.recipient_user_id, v_line.amount_minor,
                v_file.currency, nullif(v_line.reference, ''), v_file.confirmed_at);
      END IF;
    END IF;
    UPDATE bulk_payment_lines l
       SET status = CASE WHEN is_paid THEN 'paid' ELSE 'refused' END,
           refusal_reason = CASE WHEN is_paid THEN NULL
                                 ELSE 'Not enough money was left in your wallet for this line.' END,
           entry_id = CASE WHEN is_paid THEN v_entry_id END
     WHERE l.bulk_payment_id = p_bulk_payment_id AND l.line_number = v_line.line_number;
    line_number := v_line.line_number;
    amount_minor := v_line.amount_minor;
    recipient_user_id := v_line.recipient_user_id;
    RETURN NEXT;
  END LOOP;
END $$;
