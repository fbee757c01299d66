-- Customer care (issue #15): the notification center, disputes, support messages.
-- Hand-written, like 0008: no drizzle snapshot. src/db/schema.ts says the same in Drizzle.

-- The customer's switch for the emails that are not about security (those always go).
ALTER TABLE "users" ADD COLUMN "wants_notification_emails" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- One line a person reads in the bell. `kind` is text, not an enum: features built later
-- add their own kinds in contracts/notifications.ts without a migration.
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"link" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","id" DESC);
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "notifications"."read_at" is null;
--> statement-breakpoint
-- A notification and, when it goes by email, its email, in one statement of the caller's
-- transaction (platform/notifications.ts). An email that is not about security goes only
-- to people who left the switch on; the address is read here, so callers need not. Quick
-- Pay calls it inside its own single statement (ADR 014).
CREATE FUNCTION notify_user(
  p_id uuid, p_user_id uuid, p_kind text, p_text text, p_link text,
  p_email_id uuid, p_email_subject text, p_email_body text, p_is_email_always boolean
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (id, user_id, kind, text, link) VALUES (p_id, p_user_id, p_kind, p_text, p_link);
  IF p_email_id IS NOT NULL THEN
    INSERT INTO outbox_emails (id, to_address, subject, text_body)
    SELECT p_email_id, u.email, p_email_subject, p_email_body
      FROM users u WHERE u.id = p_user_id AND (p_is_email_always OR u.wants_notification_emails);
  END IF;
END $$;
--> statement-breakpoint
CREATE TYPE "public"."dispute_problem_type" AS ENUM('withdrawal_not_working', 'deposit_not_working', 'unauthorized_transaction', 'other');
--> statement-breakpoint
CREATE TYPE "public"."dispute_status" AS ENUM('pending', 'investigating', 'resolved', 'rejected');
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"reference" char(13) NOT NULL,
	"user_id" uuid NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" char(3) NOT NULL,
	"recipient_account_number" text NOT NULL,
	"problem_type" "dispute_problem_type" NOT NULL,
	"description" text NOT NULL,
	"entry_id" uuid,
	"status" "dispute_status" DEFAULT 'pending' NOT NULL,
	"resolution_note" text,
	"refund_request_id" uuid,
	"decided_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_reference_unique" UNIQUE("reference"),
	CONSTRAINT "disputes_reference_form" CHECK ("disputes"."reference" ~ '^REF-[A-Z0-9]{9}$'),
	CONSTRAINT "disputes_amount_positive" CHECK ("disputes"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_refund_request_id_money_requests_id_fk" FOREIGN KEY ("refund_request_id") REFERENCES "public"."money_requests"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "disputes_user_idx" ON "disputes" USING btree ("user_id","created_at" DESC);
--> statement-breakpoint
CREATE INDEX "disputes_open_idx" ON "disputes" USING btree ("created_at") WHERE "disputes"."status" in ('pending', 'investigating');
--> statement-breakpoint
-- One thread per customer: who waits for whom, and what each side has read.
CREATE TABLE "support_threads" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"awaiting_staff_since" timestamp with time zone,
	"customer_read_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "support_threads" ADD CONSTRAINT "support_threads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "support_threads_awaiting_idx" ON "support_threads" USING btree ("awaiting_staff_since") WHERE "support_threads"."awaiting_staff_since" is not null;
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"thread_user_id" uuid NOT NULL,
	"author_user_id" uuid NOT NULL,
	"is_from_staff" boolean NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_thread_user_id_support_threads_user_id_fk" FOREIGN KEY ("thread_user_id") REFERENCES "public"."support_threads"("user_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "support_messages_thread_idx" ON "support_messages" USING btree ("thread_user_id","id");
