-- Payment files and reconciliation (issue #30 item 5): payouts leave in batch files
-- (pain.001 for EUR, CSV otherwise), the institution's bank statements (camt.053) come in,
-- and what does not match waits in the reconciliation queue. (0026, after main's 0024; 0025 is left to another branch.)
CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reference" text NOT NULL UNIQUE,
	"currency" char(3) NOT NULL,
	"format" text NOT NULL,
	"file_text" text NOT NULL,
	"payout_count" integer NOT NULL,
	"total_minor" bigint NOT NULL,
	"created_by_user_id" uuid NOT NULL REFERENCES "users" ("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"download_count" integer DEFAULT 0 NOT NULL,
	"first_downloaded_at" timestamp with time zone,
	"first_downloaded_by_user_id" uuid REFERENCES "users" ("id"),
	CONSTRAINT "payout_batches_format" CHECK ("format" IN ('pain.001', 'csv')),
	CONSTRAINT "payout_batches_not_empty" CHECK ("payout_count" > 0 AND "total_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "bank_statements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"file_sha256" text NOT NULL UNIQUE,
	"statement_reference" text NOT NULL,
	"account_iban" text NOT NULL,
	"entry_count" integer NOT NULL,
	"deposit_request_count" integer NOT NULL,
	"matched_payout_count" integer NOT NULL,
	"queued_count" integer NOT NULL,
	"uploaded_by_user_id" uuid NOT NULL REFERENCES "users" ("id"),
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "batch_id" uuid REFERENCES "payout_batches" ("id");
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "bank_statement_id" uuid REFERENCES "bank_statements" ("id");
--> statement-breakpoint
CREATE INDEX "payouts_batch_idx" ON "payouts" USING btree ("batch_id") WHERE "batch_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "reconciliation_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"bank_statement_id" uuid REFERENCES "bank_statements" ("id"),
	"payout_id" uuid REFERENCES "payouts" ("id"),
	"amount_minor" bigint NOT NULL,
	"expected_minor" bigint,
	"currency" char(3) NOT NULL,
	"booking_date" date,
	"counterparty" text,
	"remittance" text,
	"bank_reference" text,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"note" text,
	"money_request_id" uuid REFERENCES "money_requests" ("id"),
	"resolved_by_user_id" uuid REFERENCES "users" ("id"),
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_items_kind" CHECK ("kind" IN ('unmatched_credit', 'unmatched_debit', 'amount_difference', 'missing_payout')),
	CONSTRAINT "reconciliation_items_status" CHECK ("status" IN ('open', 'resolved')),
	CONSTRAINT "reconciliation_items_resolution" CHECK ("resolution" IS NULL OR "resolution" IN ('note', 'deposit', 'matched')),
	CONSTRAINT "reconciliation_items_amount_positive" CHECK ("amount_minor" > 0)
);
--> statement-breakpoint
CREATE INDEX "reconciliation_items_open_idx" ON "reconciliation_items" USING btree ("created_at", "id") WHERE "status" = 'open';
--> statement-breakpoint
-- One open "missing from the statements" item per payout at most.
CREATE UNIQUE INDEX "reconciliation_items_missing_payout_unique" ON "reconciliation_items" USING btree ("payout_id") WHERE "kind" = 'missing_payout' AND "status" = 'open';
