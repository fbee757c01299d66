-- Exchange markups set by staff on the rates page (issue #33 item 5, ADR 051's amendment).
-- A row overrides the operator's configured markup (COFFER_FX_MARKUP) for one pair in both
-- directions; a pair without a row keeps the configured one. Who set it, when and why are
-- here for the page; every change and every return to the default is also an audit event.
CREATE TABLE "fx_markups" (
	"pair" char(7) PRIMARY KEY NOT NULL,
	"markup_bp" integer NOT NULL,
	"set_by_user_id" uuid NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "fx_markups_pair_shape" CHECK ("fx_markups"."pair" ~ '^[A-Z]{3}/[A-Z]{3}$' and substr("fx_markups"."pair", 1, 3) < substr("fx_markups"."pair", 5, 3)),
	CONSTRAINT "fx_markups_markup_range" CHECK ("fx_markups"."markup_bp" between 0 and 5000)
);
--> statement-breakpoint
ALTER TABLE "fx_markups" ADD CONSTRAINT "fx_markups_set_by_user_id_users_id_fk" FOREIGN KEY ("set_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
