-- The housekeeping job (platform/housekeeping.ts, ADR 042) removes read notifications and
-- sent emails past their period in small batches; each batch finds its rows through one of
-- these indexes instead of reading the table. Unread notifications and unsent emails, which
-- are never removed, are left out of them. Expired sessions, sign-in challenges, email links
-- and step-up codes are found by their expiry.
CREATE INDEX "notifications_read_at_idx" ON "notifications" USING btree ("read_at") WHERE "read_at" is not null;--> statement-breakpoint
CREATE INDEX "outbox_emails_sent_at_idx" ON "outbox_emails" USING btree ("sent_at") WHERE "sent_at" is not null;--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "login_challenges_expires_at_idx" ON "login_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "email_tokens_expires_at_idx" ON "email_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "step_up_codes_expires_at_idx" ON "step_up_codes" USING btree ("expires_at");
