-- Staff find a customer by the name on their ID (their verified legal name, migration 0032)
-- as by their username: part of it, case-insensitively, through a trigram index like the
-- username's (migration 0004).
CREATE INDEX "users_legal_name_trigram_idx" ON "users" USING gin (lower("legal_name") gin_trgm_ops);
