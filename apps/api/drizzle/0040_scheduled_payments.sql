-- Scheduled and recurring payments (issue #32 item 2, ADR 045). A schedule pays a saved
-- payee (payee_id, without a foreign key: a deleted payee leaves the schedule, whose next
-- occurrence is refused as "payee gone") on local dates of the customer's time zone. Each
-- occurrence is a row keyed by (schedule, local date), created once by the runner; paying
-- it and marking it paid happen in one transaction under the occurrence's row lock, so
-- an occurrence is paid at most once with several runners, after a crash and after the
-- clock jumps.
CREATE TABLE "scheduled_payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"payee_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"reference" text,
	"frequency" text NOT NULL,
	"start_date" date NOT NULL,
	"weekday" smallint,
	"day_of_month" smallint,
	"is_last_day_of_month" boolean DEFAULT false NOT NULL,
	"end_type" text NOT NULL,
	"end_date" date,
	"occurrences_max" integer,
	"occurrences_made" integer DEFAULT 0 NOT NULL,
	"next_date" date,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_payments_kind_known" CHECK ("scheduled_payments"."kind" IN ('quick_pay', 'bill', 'payout')),
	CONSTRAINT "scheduled_payments_amount_positive" CHECK ("scheduled_payments"."amount_minor" > 0),
	CONSTRAINT "scheduled_payments_frequency_known" CHECK ("scheduled_payments"."frequency" IN ('once', 'weekly', 'monthly')),
	CONSTRAINT "scheduled_payments_weekday_range" CHECK ("scheduled_payments"."weekday" BETWEEN 1 AND 7),
	CONSTRAINT "scheduled_payments_day_of_month_range" CHECK ("scheduled_payments"."day_of_month" BETWEEN 1 AND 30),
	CONSTRAINT "scheduled_payments_end_type_known" CHECK ("scheduled_payments"."end_type" IN ('never', 'until', 'count')),
	CONSTRAINT "scheduled_payments_end_after_start" CHECK ("scheduled_payments"."end_date" IS NULL OR "scheduled_payments"."end_date" >= "scheduled_payments"."start_date"),
	CONSTRAINT "scheduled_payments_status_known" CHECK ("scheduled_payments"."status" IN ('active', 'paused', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "scheduled_payment_occurrences" (
	"schedule_id" uuid NOT NULL,
	"local_date" date NOT NULL,
	"amount_minor" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"reason" text,
	"ledger_reference" text,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "scheduled_payment_occurrences_schedule_id_local_date_pk" PRIMARY KEY("schedule_id","local_date"),
	CONSTRAINT "scheduled_payment_occurrences_status_known" CHECK ("scheduled_payment_occurrences"."status" IN ('pending', 'paid', 'retrying', 'missed', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "scheduled_payments" ADD CONSTRAINT "scheduled_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scheduled_payment_occurrences" ADD CONSTRAINT "scheduled_payment_occurrences_schedule_id_scheduled_payments_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."scheduled_payments"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "scheduled_payments_user_created_idx" ON "scheduled_payments" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE INDEX "scheduled_payments_due_idx" ON "scheduled_payments" USING btree ("next_date") WHERE "scheduled_payments"."status" = 'active' AND "scheduled_payments"."next_date" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "scheduled_payment_occurrences_due_idx" ON "scheduled_payment_occurrences" USING btree ("next_attempt_at") WHERE "scheduled_payment_occurrences"."status" IN ('pending', 'retrying');
