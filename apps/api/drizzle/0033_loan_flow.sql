-- The loan in one flow (issue #31 item 2). Hand-written, like 0008: no drizzle snapshot.
-- src/db/schema.ts says the same in Drizzle.

-- A customer asks for an assessment from the loan page; the request waits in the loans
-- queue until staff set the eligibility. One row per customer, open while settled_at is
-- null: of two requests sent at once the primary key keeps one, and a later request
-- reopens the row (the audit log keeps each one).
CREATE TABLE "loan_assessment_requests" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	"settled_by_user_id" uuid REFERENCES "users"("id"),
	-- Set when staff settled it by declining, with the reason the customer reads.
	"declined_reason" text
);
--> statement-breakpoint
CREATE INDEX "loan_assessment_requests_open_idx" ON "loan_assessment_requests" USING btree ("requested_at") WHERE "settled_at" IS NULL;
--> statement-breakpoint
-- The loans queue's "to disburse" list: approved loans, the longest waiting first.
CREATE INDEX "loans_approved_idx" ON "loans" USING btree ("decided_at") WHERE "status" = 'approved';
--> statement-breakpoint
-- Support threads are assigned to a colleague and stay in the inbox until resolved
-- (answered is not resolved).
ALTER TABLE "support_threads" ADD COLUMN "assigned_to_user_id" uuid REFERENCES "users"("id");
--> statement-breakpoint
ALTER TABLE "support_threads" ADD COLUMN "resolved_at" timestamp with time zone;
--> statement-breakpoint
-- Until now an answered thread left the inbox: those count as resolved, so the inbox
-- holds after this migration what it held before it.
UPDATE "support_threads" SET "resolved_at" = "last_message_at" WHERE "awaiting_staff_since" IS NULL;
--> statement-breakpoint
CREATE INDEX "support_threads_open_idx" ON "support_threads" USING btree ("last_message_at") WHERE "resolved_at" IS NULL;
