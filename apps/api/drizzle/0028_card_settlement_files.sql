-- Card settlement files (issue #30 item 5, "Card settlements"): the processor's file of a
-- day's settlements is matched to the card purchases we settled, and what differs waits in
-- the reconciliation queue beside the bank statements' items. (0028; 0027 and 0029 are
-- other branches'.)
CREATE TABLE "card_settlement_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"file_sha256" text NOT NULL UNIQUE,
	"settlement_day" date NOT NULL,
	"line_count" integer NOT NULL,
	"matched_count" integer NOT NULL,
	"queued_count" integer NOT NULL,
	"uploaded_by_user_id" uuid NOT NULL REFERENCES "users" ("id"),
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The file that first showed a settlement of ours; the rest of its day's are missing.
ALTER TABLE "card_authorizations" ADD COLUMN "settlement_file_id" uuid REFERENCES "card_settlement_files" ("id");
--> statement-breakpoint
CREATE INDEX "card_authorizations_settled_idx" ON "card_authorizations" USING btree ("settled_at") WHERE "settled_at" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD COLUMN "card_settlement_file_id" uuid REFERENCES "card_settlement_files" ("id");
--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD COLUMN "card_authorization_id" uuid REFERENCES "card_authorizations" ("id");
--> statement-breakpoint
-- What refunding the cardholder would give back: what we took beyond the processor's
-- settlement, or all of a capture it never settled. Null when a refund has no sense.
ALTER TABLE "reconciliation_items" ADD COLUMN "refundable_minor" bigint CHECK ("refundable_minor" > 0);
--> statement-breakpoint
ALTER TABLE "reconciliation_items" DROP CONSTRAINT "reconciliation_items_kind";
--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD CONSTRAINT "reconciliation_items_kind" CHECK ("kind" IN ('unmatched_credit', 'unmatched_debit', 'amount_difference', 'missing_payout', 'unknown_settlement', 'settlement_difference', 'missing_settlement'));
--> statement-breakpoint
ALTER TABLE "reconciliation_items" DROP CONSTRAINT "reconciliation_items_resolution";
--> statement-breakpoint
ALTER TABLE "reconciliation_items" ADD CONSTRAINT "reconciliation_items_resolution" CHECK ("resolution" IS NULL OR "resolution" IN ('note', 'deposit', 'refund', 'matched'));
--> statement-breakpoint
-- One open "missing from the file" item per card purchase at most.
CREATE UNIQUE INDEX "reconciliation_items_missing_settlement_unique" ON "reconciliation_items" USING btree ("card_authorization_id") WHERE "kind" = 'missing_settlement' AND "status" = 'open';
