-- Identity verification (KYC): uploaded documents and the submissions that use them.
-- The file itself is encrypted on disk (features/kyc/storage.ts); a row here says who
-- uploaded which stored key, its type read from the bytes, size and SHA-256.
CREATE TYPE "public"."kyc_id_type" AS ENUM('passport', 'driver_license', 'national_id');--> statement-breakpoint
CREATE TYPE "public"."kyc_status" AS ENUM('pending', 'approved', 'rejected');--> statement-breakpoint
CREATE TABLE "kyc_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"storage_key" text NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" char(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "kyc_documents_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "kyc_documents_size_positive" CHECK ("kyc_documents"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "kyc_submissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"id_type" "kyc_id_type" NOT NULL,
	"id_number" text NOT NULL,
	"address" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"document_id" uuid NOT NULL,
	"status" "kyc_status" DEFAULT 'pending' NOT NULL,
	"reviewer_user_id" uuid,
	"reason" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_submissions_document_id_unique" UNIQUE("document_id")
);
--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_document_id_kyc_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."kyc_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- One pending submission per customer: two submitted at once, one is refused here.
CREATE UNIQUE INDEX "kyc_submissions_one_pending_per_user" ON "kyc_submissions" USING btree ("user_id") WHERE "kyc_submissions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "kyc_submissions_user_idx" ON "kyc_submissions" USING btree ("user_id","created_at" DESC);--> statement-breakpoint
CREATE INDEX "kyc_submissions_queue_idx" ON "kyc_submissions" USING btree ("created_at") WHERE "kyc_submissions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "kyc_documents_unattached_idx" ON "kyc_documents" USING btree ("created_at") WHERE "kyc_documents"."deleted_at" IS NULL;
