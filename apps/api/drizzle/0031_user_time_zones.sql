-- The customer's time zone (issue #31 item 13): statements cut days and show times in it.
-- Null until they choose one on their profile: their country's only zone, or the
-- institution's (COFFER_TIMEZONE) for a country with several, stands in.
ALTER TABLE "users" ADD COLUMN "time_zone" text;
