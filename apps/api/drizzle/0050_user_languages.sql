-- The language each person is spoken to in (issue #35, ADR 055): their emails, statements and
-- the API's messages when no cookie says otherwise. Set at sign-up from the request's
-- language, changed on the profile. English, the source, for everyone before.
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_known" CHECK ("users"."language" in ('en', 'de', 'ja', 'ar'));
