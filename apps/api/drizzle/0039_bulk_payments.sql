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
