-- A language is stored only when the person chose it (issue #35, ADR 055's amendment):
-- users.language is NULL until they choose one on the profile (PUT /profile/language), and
-- signing in then adopts it. Every row so far had 'en' by default or the language of the
-- request that signed them up; nobody could tell a default 'en' from a chosen one, so every
-- 'en' becomes "not chosen" (an English speaker's browser still asks for English), while a
-- German, Japanese or Arabic row stays: it was asked for by that person's browser or choice.
-- sign_in_language is the language of the request that last signed them in (or up): what
-- their emails and statements are written in while they have chosen none.
ALTER TABLE "users" ADD COLUMN "sign_in_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_sign_in_language_known" CHECK ("users"."sign_in_language" in ('en', 'de', 'ja', 'ar'));--> statement-breakpoint
UPDATE "users" SET "sign_in_language" = "language" WHERE "language" <> 'en';--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "language" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "language" DROP NOT NULL;--> statement-breakpoint
UPDATE "users" SET "language" = NULL WHERE "language" = 'en';
--> statement-breakpoint
-- The language a queued email was written in, so the sandbox marking added as it is sent
-- (ADR 055) is in the same one. NULL for a row written elsewhere (notify_user, and every
-- row before): the recipient's language is read when it is sent.
ALTER TABLE "outbox_emails" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_language_known" CHECK ("outbox_emails"."language" in ('en', 'de', 'ja', 'ar'));
