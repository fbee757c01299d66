-- Attempts per client address (failed logins, failed second factors), shared by every API
-- instance: a fixed window per key, spent atomically before the attempt is checked and
-- given back when it succeeds (platform/attempt-counters.ts). The key is a SHA-256, so
-- the table holds no addresses.
CREATE TABLE "attempt_counters" (
	"key_hash" char(64) PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"attempt_count" integer NOT NULL,
	CONSTRAINT "attempt_counters_count_check" CHECK ("attempt_counters"."attempt_count" >= 0)
);
--> statement-breakpoint
CREATE INDEX "attempt_counters_window_idx" ON "attempt_counters" USING btree ("window_started_at");
