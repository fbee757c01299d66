-- Quotes for exchanges between a customer's wallets (issue #33, ADR 051). A quote holds the
-- amounts the customer was shown; accepting it within its 30 seconds posts exactly them,
-- once: the accept is a conditional UPDATE of this row in the entry's transaction.
CREATE TABLE "exchange_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"sell_account_id" uuid NOT NULL,
	"receive_account_id" uuid NOT NULL,
	"sell_currency" char(3) NOT NULL,
	"receive_currency" char(3) NOT NULL,
	"sell_minor" bigint NOT NULL,
	"receive_minor" bigint NOT NULL,
	"markup_minor" bigint NOT NULL,
	"rounding_minor" bigint NOT NULL,
	"position_minor" bigint NOT NULL,
	"mid_rate" text NOT NULL,
	"applied_rate" text NOT NULL,
	"markup_bp" integer NOT NULL,
	"rate_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"entry_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_quotes_amounts_positive" CHECK ("exchange_quotes"."sell_minor" > 0 and "exchange_quotes"."receive_minor" > 0),
	CONSTRAINT "exchange_quotes_two_currencies" CHECK ("exchange_quotes"."sell_currency" <> "exchange_quotes"."receive_currency"),
	CONSTRAINT "exchange_quotes_position_adds_up" CHECK ("exchange_quotes"."position_minor" = "exchange_quotes"."receive_minor" + "exchange_quotes"."markup_minor" + "exchange_quotes"."rounding_minor"),
	CONSTRAINT "exchange_quotes_accepted_has_entry" CHECK (("exchange_quotes"."accepted_at" is null) = ("exchange_quotes"."entry_id" is null))
);
--> statement-breakpoint
ALTER TABLE "exchange_quotes" ADD CONSTRAINT "exchange_quotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_quotes_user_idx" ON "exchange_quotes" USING btree ("user_id","created_at" DESC NULLS LAST);
