-- Passkeys (issue #34 item 2, ADR 046): WebAuthn credentials of customers and staff, and
-- the challenges the server hands out for them. A challenge is single use
-- (`consumed_at`), short-lived and bound to its flow: the user it was made for (null for
-- a passwordless sign-in, where the authenticator names the user), the login challenge of
-- a second factor, or the payment a step-up confirms (`binding`).
CREATE TABLE "passkeys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"sign_count" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}' NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "passkeys_name_length" CHECK (char_length("passkeys"."name") BETWEEN 1 AND 60)
);
--> statement-breakpoint
ALTER TABLE "passkeys" ADD CONSTRAINT "passkeys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "passkeys_credential_id_unique" ON "passkeys" USING btree ("credential_id");
--> statement-breakpoint
CREATE INDEX "passkeys_user_created_idx" ON "passkeys" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE TABLE "passkey_challenges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid,
	"flow" text NOT NULL,
	"challenge" text NOT NULL,
	"binding" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "passkey_challenges_flow_known" CHECK ("passkey_challenges"."flow" IN ('registration', 'sign_in', 'second_factor', 'step_up'))
);
--> statement-breakpoint
ALTER TABLE "passkey_challenges" ADD CONSTRAINT "passkey_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "passkey_challenges_expires_at_idx" ON "passkey_challenges" USING btree ("expires_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "passkey_challenges_challenge_unique" ON "passkey_challenges" USING btree ("challenge");
