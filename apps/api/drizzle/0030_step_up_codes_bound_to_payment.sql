-- An emailed step-up code confirms one payment (issue #31 item 11, PSD2's dynamic
-- linking): its email names the amount and payee, and it works only for a request with
-- that amount, currency and payee. Codes sent before this have no payment: they are
-- spent here, and a customer mid-payment asks for a new one.
UPDATE "step_up_codes" SET "consumed_at" = now() WHERE "consumed_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "step_up_codes" ADD COLUMN "payment_hash" char(64);
