-- Loans (issue #16) and the one scheduled-jobs runner (ADR 015).
-- Hand-written, like 0008: no drizzle snapshot. src/db/schema.ts says the same in Drizzle.

-- Interest a borrower pays is the institution's income: its own system account per
-- currency. Added here and first used by later transactions (PostgreSQL forbids using a
-- new enum value in the transaction that adds it).
ALTER TYPE "public"."account_kind" ADD VALUE IF NOT EXISTS 'interest_income';
--> statement-breakpoint
-- What staff decided a customer may borrow, with why; replaced, never stacked.
CREATE TABLE "loan_eligibilities" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"amount_minor" bigint NOT NULL CHECK ("amount_minor" >= 0),
	"currency" char(3) NOT NULL,
	"reason" text NOT NULL,
	"set_by_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"currency" char(3) NOT NULL,
	"amount_minor" bigint NOT NULL CHECK ("amount_minor" > 0),
	"monthly_salary_minor" bigint NOT NULL CHECK ("monthly_salary_minor" > 0),
	"months" smallint NOT NULL CHECK ("months" BETWEEN 1 AND 60),
	"annual_rate_bp" integer NOT NULL CHECK ("annual_rate_bp" >= 0),
	"full_name" text NOT NULL,
	"phone" text NOT NULL,
	"address" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL
		CHECK ("status" IN ('pending', 'approved', 'declined', 'disbursed', 'repaid')),
	"decision_reason" text,
	"decided_by_user_id" uuid REFERENCES "users"("id"),
	"decided_at" timestamp with time zone,
	"disbursement_requested_by_user_id" uuid REFERENCES "users"("id"),
	"disbursed_by_user_id" uuid REFERENCES "users"("id"),
	"disbursed_on" date,
	"disbursed_at" timestamp with time zone,
	"disbursement_entry_id" uuid,
	"instalment_minor" bigint,
	"outstanding_principal_minor" bigint DEFAULT 0 NOT NULL CHECK ("outstanding_principal_minor" >= 0),
	"is_auto_repay_on" boolean DEFAULT true NOT NULL,
	"short_notice_on" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- Four eyes: the admin who asked for a disbursement does not also make it.
	CONSTRAINT "loans_disbursed_by_second_admin" CHECK (
		"disbursement_requested_by_user_id" IS NULL OR "disbursed_by_user_id" IS NULL
		OR "disbursement_requested_by_user_id" <> "disbursed_by_user_id")
);
--> statement-breakpoint
-- One pending application per customer, however many arrive at once.
CREATE UNIQUE INDEX "loans_one_pending_per_user" ON "loans" USING btree ("user_id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "loans_user_idx" ON "loans" USING btree ("user_id", "created_at" DESC);
--> statement-breakpoint
CREATE INDEX "loans_pending_idx" ON "loans" USING btree ("created_at") WHERE "status" = 'pending';
--> statement-breakpoint
-- The schedule fixed at disbursement; a pay-ahead re-amortizes the instalments not yet
-- started (ADR 015). Paid amounts only grow.
CREATE TABLE "loan_instalments" (
	"loan_id" uuid NOT NULL REFERENCES "loans"("id"),
	"number" smallint NOT NULL,
	"due_on" date NOT NULL,
	"principal_minor" bigint NOT NULL CHECK ("principal_minor" >= 0),
	"interest_minor" bigint NOT NULL CHECK ("interest_minor" >= 0),
	"principal_paid_minor" bigint DEFAULT 0 NOT NULL,
	"interest_paid_minor" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "loan_instalments_pk" PRIMARY KEY ("loan_id", "number"),
	CONSTRAINT "loan_instalments_paid_in_range" CHECK (
		"principal_paid_minor" BETWEEN 0 AND "principal_minor"
		AND "interest_paid_minor" BETWEEN 0 AND "interest_minor")
);
--> statement-breakpoint
CREATE INDEX "loan_instalments_unpaid_due_idx" ON "loan_instalments" USING btree ("due_on")
	WHERE "principal_paid_minor" < "principal_minor" OR "interest_paid_minor" < "interest_minor";
--> statement-breakpoint
CREATE TABLE "loan_repayments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"loan_id" uuid NOT NULL REFERENCES "loans"("id"),
	"entry_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL CHECK ("amount_minor" > 0),
	"principal_minor" bigint NOT NULL CHECK ("principal_minor" >= 0),
	"interest_minor" bigint NOT NULL CHECK ("interest_minor" >= 0),
	"is_automatic" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loan_repayments_parts_sum" CHECK ("principal_minor" + "interest_minor" = "amount_minor")
);
--> statement-breakpoint
CREATE INDEX "loan_repayments_loan_idx" ON "loan_repayments" USING btree ("loan_id", "created_at");
--> statement-breakpoint
-- The one scheduled-jobs runner (platform/jobs.ts): a row per job, claimed by moving its
-- next run forward in one statement with FOR UPDATE SKIP LOCKED, so one instance runs it.
CREATE TABLE "scheduled_jobs" (
	"name" text PRIMARY KEY NOT NULL,
	"interval_ms" bigint NOT NULL CHECK ("interval_ms" > 0),
	"next_run_at" timestamp with time zone NOT NULL,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
-- A repayment above the step-up threshold asks for a code like a payout.
ALTER TYPE "public"."step_up_purpose" ADD VALUE IF NOT EXISTS 'loan_repayment';
