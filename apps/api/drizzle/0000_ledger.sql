CREATE TYPE "public"."account_kind" AS ENUM('customer', 'settlement', 'fees', 'bill_clearing', 'payout_clearing', 'loan_receivable', 'sandbox_funding');--> statement-breakpoint
CREATE TYPE "public"."entry_kind" AS ENUM('deposit', 'transfer', 'payout', 'payout_reversal', 'bill_payment', 'fee', 'loan_disbursement', 'loan_repayment', 'adjustment', 'card_purchase');--> statement-breakpoint
CREATE TYPE "public"."hold_status" AS ENUM('active', 'captured', 'released');--> statement-breakpoint
CREATE TABLE "account_balances" (
	"account_id" uuid NOT NULL,
	"bucket" smallint NOT NULL,
	"balance_minor" bigint DEFAULT 0 NOT NULL,
	"held_minor" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "account_balances_account_id_bucket_pk" PRIMARY KEY("account_id","bucket"),
	CONSTRAINT "account_balances_held_not_negative" CHECK ("account_balances"."held_minor" >= 0)
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"number" char(10) NOT NULL,
	"kind" "account_kind" NOT NULL,
	"owner_user_id" uuid,
	"currency" char(3) NOT NULL,
	"bucket_count" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_number_unique" UNIQUE("number"),
	CONSTRAINT "accounts_bucket_count_range" CHECK ("accounts"."bucket_count" between 1 and 64),
	CONSTRAINT "accounts_customer_has_one_bucket" CHECK ("accounts"."kind" <> 'customer' or "accounts"."bucket_count" = 1)
);
--> statement-breakpoint
CREATE TABLE "holds" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" "hold_status" DEFAULT 'active' NOT NULL,
	"reason" text NOT NULL,
	"capture_entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "holds_amount_positive" CHECK ("holds"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" char(64) NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" "entry_kind" NOT NULL,
	"memo" text NOT NULL,
	"idempotency_key" text,
	"actor_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "journal_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"entry_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	CONSTRAINT "journal_lines_amount_not_zero" CHECK ("journal_lines"."amount_minor" <> 0)
);
--> statement-breakpoint
ALTER TABLE "account_balances" ADD CONSTRAINT "account_balances_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_capture_entry_id_journal_entries_id_fk" FOREIGN KEY ("capture_entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journal_lines" ADD CONSTRAINT "journal_lines_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_one_system_account_per_kind_and_currency" ON "accounts" USING btree ("kind","currency") WHERE "accounts"."kind" <> 'customer';--> statement-breakpoint
CREATE INDEX "accounts_owner_user_id_idx" ON "accounts" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "holds_active_by_account_idx" ON "holds" USING btree ("account_id") WHERE "holds"."status" = 'active';--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "journal_lines_account_history_idx" ON "journal_lines" USING btree ("account_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "journal_lines_entry_id_idx" ON "journal_lines" USING btree ("entry_id");