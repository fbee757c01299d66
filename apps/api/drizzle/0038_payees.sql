-- Saved payees (issue #32 item 1, ADR 043): what a customer pays again and again, with a
-- nickname. `target` is the form's own fields as the shared schema checked them (a Quick
-- Pay recipient as typed, a biller and reference, or a withdrawal destination); the
-- recipient's user id is not stored, so a payee links no two customers and is looked up
-- at each payment as Quick Pay looks up what is typed. `target_key` is what decides where
-- the money goes (as the step-up code's payee key): one payee per key and customer.
ALTER TYPE "public"."step_up_purpose" ADD VALUE IF NOT EXISTS 'payee';
--> statement-breakpoint
CREATE TABLE "payees" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"nickname" text NOT NULL,
	"kind" text NOT NULL,
	"target" jsonb NOT NULL,
	"target_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payees_kind_known" CHECK ("payees"."kind" IN ('coffer', 'bill', 'payout')),
	CONSTRAINT "payees_nickname_length" CHECK (char_length("payees"."nickname") BETWEEN 1 AND 40)
);
--> statement-breakpoint
ALTER TABLE "payees" ADD CONSTRAINT "payees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "payees_user_target_unique" ON "payees" USING btree ("user_id","target_key");
--> statement-breakpoint
CREATE INDEX "payees_user_created_idx" ON "payees" USING btree ("user_id","created_at");
