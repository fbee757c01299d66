-- Disputes started from a transaction (issue #31 item 9). Hand-written, like 0031.
-- The problem types a card, bill or transfer line needs; used only by later transactions,
-- so adding them inside this migration's transaction is allowed.
ALTER TYPE "public"."dispute_problem_type" ADD VALUE IF NOT EXISTS 'charged_twice' BEFORE 'other';--> statement-breakpoint
ALTER TYPE "public"."dispute_problem_type" ADD VALUE IF NOT EXISTS 'goods_not_received' BEFORE 'other';--> statement-breakpoint
ALTER TYPE "public"."dispute_problem_type" ADD VALUE IF NOT EXISTS 'wrong_amount' BEFORE 'other';--> statement-breakpoint
-- A dispute about a card purchase, a bill or a deposit has no recipient to type; a
-- transfer's is the ledger's. Older disputes keep what was typed.
ALTER TABLE "disputes" ALTER COLUMN "recipient_account_number" DROP NOT NULL;--> statement-breakpoint
-- One dispute per transaction and customer: the row that speaks for it, so a second
-- filing is refused with the first one's reference and the transaction lists show it.
-- A table rather than a unique index on disputes: disputes filed before this migration
-- may name the same transaction twice, and they stay as they were filed.
CREATE TABLE "disputed_transactions" (
	"user_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"dispute_id" uuid NOT NULL,
	CONSTRAINT "disputed_transactions_pkey" PRIMARY KEY ("user_id", "entry_id"),
	CONSTRAINT "disputed_transactions_dispute_id_unique" UNIQUE ("dispute_id")
);--> statement-breakpoint
ALTER TABLE "disputed_transactions" ADD CONSTRAINT "disputed_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputed_transactions" ADD CONSTRAINT "disputed_transactions_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputed_transactions" ADD CONSTRAINT "disputed_transactions_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The first dispute about each transaction speaks for it.
INSERT INTO "disputed_transactions" ("user_id", "entry_id", "dispute_id")
SELECT DISTINCT ON ("user_id", "entry_id") "user_id", "entry_id", "id"
  FROM "disputes"
 WHERE "entry_id" IS NOT NULL
 ORDER BY "user_id", "entry_id", "created_at", "id";--> statement-breakpoint
-- A dispute about a card purchase finds the card that made it, to freeze it.
CREATE INDEX "card_authorizations_entry_idx" ON "card_authorizations" USING btree ("entry_id") WHERE "entry_id" IS NOT NULL;
