-- Four-eyes that one admin cannot walk around (issue #11.2) and that can finish (#12.4).
-- The maker may cancel a pending request: a fourth status. Added, not used, in this
-- transaction, which PostgreSQL allows.
ALTER TYPE "public"."money_request_status" ADD VALUE 'cancelled';--> statement-breakpoint
CREATE TYPE "public"."role_grant_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
-- Granting the admin role needs a second admin; the row also records who promoted whom,
-- so that an admin promoted by X never checks X's money requests.
CREATE TABLE "role_grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"role" "user_role" NOT NULL,
	"status" "role_grant_status" NOT NULL,
	"reason" text NOT NULL,
	"requested_by_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"decided_by_user_id" uuid REFERENCES "users"("id"),
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "role_grants_decider_is_not_requester" CHECK ("role_grants"."decided_by_user_id" IS NULL OR "role_grants"."decided_by_user_id" <> "role_grants"."requested_by_user_id"),
	CONSTRAINT "role_grants_not_self" CHECK ("role_grants"."requested_by_user_id" <> "role_grants"."user_id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "role_grants_one_pending_idx" ON "role_grants" USING btree ("user_id") WHERE "role_grants"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "role_grants_user_idx" ON "role_grants" USING btree ("user_id");--> statement-breakpoint
-- What each maker posted at once, per currency and UTC day: spent with one conditional
-- upsert, so two concurrent small postings cannot both slip under the daily total.
CREATE TABLE "four_eyes_daily_totals" (
	"maker_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"currency" char(3) NOT NULL,
	"day" date NOT NULL,
	"posted_minor" bigint NOT NULL,
	CONSTRAINT "four_eyes_daily_totals_pk" PRIMARY KEY("maker_user_id","currency","day"),
	CONSTRAINT "four_eyes_daily_totals_positive" CHECK ("four_eyes_daily_totals"."posted_minor" > 0)
);
