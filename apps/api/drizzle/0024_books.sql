-- The operator's books (issue #30): each day of the institution's time zone is closed once
-- into a snapshot per currency and account kind (opening balance, debits, credits, closing
-- balance), computed from the previous close and that day's lines. The day is the primary
-- key, so two instances racing to close it cannot both succeed, and both tables refuse
-- UPDATE, DELETE and TRUNCATE: a close is never rewritten, a mistake shows in the next day.
-- (0023 is left to another branch.)
CREATE TABLE "book_closes" (
	"day" date PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"line_count" bigint NOT NULL,
	"is_balanced" boolean NOT NULL,
	"problems" jsonb NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "book_closes_day_order" CHECK ("starts_at" < "ends_at")
);
--> statement-breakpoint
CREATE TABLE "book_close_balances" (
	"day" date NOT NULL REFERENCES "book_closes" ("day"),
	"currency" char(3) NOT NULL,
	"account_kind" "account_kind" NOT NULL,
	"opening_minor" bigint NOT NULL,
	"debits_minor" bigint NOT NULL,
	"credits_minor" bigint NOT NULL,
	"closing_minor" bigint NOT NULL,
	CONSTRAINT "book_close_balances_pk" PRIMARY KEY ("day", "currency", "account_kind"),
	CONSTRAINT "book_close_balances_movements_not_negative" CHECK ("debits_minor" >= 0 AND "credits_minor" >= 0),
	-- Credits are positive lines and debits negative ones, as in the ledger.
	CONSTRAINT "book_close_balances_add_up" CHECK ("closing_minor" = "opening_minor" + "credits_minor" - "debits_minor")
);
--> statement-breakpoint
CREATE TRIGGER book_closes_append_only BEFORE UPDATE OR DELETE ON book_closes
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
CREATE TRIGGER book_closes_no_truncate BEFORE TRUNCATE ON book_closes
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
CREATE TRIGGER book_close_balances_append_only BEFORE UPDATE OR DELETE ON book_close_balances
  FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
CREATE TRIGGER book_close_balances_no_truncate BEFORE TRUNCATE ON book_close_balances
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_ledger_change();
--> statement-breakpoint
-- A day's lines and the export's pages are found by the entries' time, in time order.
CREATE INDEX "journal_entries_created_at_idx" ON "journal_entries" USING btree ("created_at", "id");
