-- Legal names (issue #31 item 7). Identity verification asks for the legal name as it is on
-- the document; null on submissions made before it did. An approval copies it to the user,
-- where statements, card holder names and staff pages read it; null until one is approved,
-- and those pages then show the username rather than a name nobody checked.
ALTER TABLE "kyc_submissions" ADD COLUMN "legal_name" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "legal_name" text;
