-- Trigram indexes make the staff's case-insensitive substring search on names and
-- addresses fast. PGlite loads the extension's code at open (see src/db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
