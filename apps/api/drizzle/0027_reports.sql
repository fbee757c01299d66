-- Reports with charts (issue #30 item 6). A queue's size in the past cannot be read back
-- from its table, so a job writes each day's reading of every queue, the day's last one
-- winning; the report reads them by day. New customers and approved verifications are
-- counted by day from their own tables, through indexes on the time they happened.
-- (0027; 0028 and 0029 are other branches'.)
CREATE TABLE "report_queue_sizes" (
	"day" date NOT NULL,
	"queue" text NOT NULL,
	"open_count" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_queue_sizes_pk" PRIMARY KEY ("day", "queue"),
	CONSTRAINT "report_queue_sizes_open_count_not_negative" CHECK ("open_count" >= 0)
);
--> statement-breakpoint
CREATE INDEX "users_customer_created_at_idx" ON "users" USING btree ("created_at") WHERE "role" = 'customer';
--> statement-breakpoint
CREATE INDEX "kyc_submissions_approved_idx" ON "kyc_submissions" USING btree ("decided_at") WHERE "status" = 'approved';
