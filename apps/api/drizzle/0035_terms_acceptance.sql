-- Terms and privacy (issue #31 item 8): which version of the operator's terms and privacy
-- notice the customer accepted, and when. Null until they accept one: a customer who signed
-- up before the operator published terms is asked at their next request, as after a new
-- version. Each acceptance is also an audit event, so earlier ones are not lost.
ALTER TABLE "users" ADD COLUMN "terms_version" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;
