-- A customer's export of their own data (issue #34 item 3, ADR 049). One row per request;
-- the unique partial index keeps one export building per customer, so two requests at
-- once build one zip: the second's INSERT does nothing and it answers the first's row.
-- The zip itself is a file under COFFER_DATA_DIR/data-exports, encrypted as identity
-- documents are (storage_key, secret_key_id); the expiry job removes it after seven days.
CREATE TABLE "data_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"status" text DEFAULT 'building' NOT NULL,
	"sections_done" smallint DEFAULT 0 NOT NULL,
	"sections_total" smallint NOT NULL,
	"build_attempts" smallint DEFAULT 0 NOT NULL,
	"build_lease_until" timestamp with time zone,
	"storage_key" uuid,
	"secret_key_id" text,
	"size_bytes" bigint,
	"sha256" char(64),
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"download_session_id" uuid,
	"download_allowed_until" timestamp with time zone,
	CONSTRAINT "data_exports_status_known" CHECK ("data_exports"."status" IN ('building', 'ready', 'failed', 'expired')),
	CONSTRAINT "data_exports_ready_has_file" CHECK ("data_exports"."status" <> 'ready' OR ("data_exports"."storage_key" IS NOT NULL AND "data_exports"."expires_at" IS NOT NULL AND "data_exports"."size_bytes" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "data_exports_one_building_idx" ON "data_exports" ("user_id") WHERE "status" = 'building';
--> statement-breakpoint
CREATE INDEX "data_exports_user_idx" ON "data_exports" ("user_id", "requested_at" DESC);
--> statement-breakpoint
CREATE INDEX "data_exports_building_idx" ON "data_exports" ("requested_at") WHERE "status" = 'building';
--> statement-breakpoint
CREATE INDEX "data_exports_expiry_idx" ON "data_exports" ("expires_at") WHERE "status" = 'ready';
