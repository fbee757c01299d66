-- Total Users on the staff customer list, exact and cheap at a million users (ADR 022):
-- count(*) over users read the whole table (80 ms at 1,000,000 rows) on every page of the
-- list. Each statement that inserts or deletes users adds its row count, in the same
-- transaction, to one of 16 stripes chosen by the connection's backend pid, so sign-ups
-- on different connections update different rows instead of queueing on one; the list
-- sums the 16 rows. A stripe may go negative (a user counted on one stripe and deleted
-- through another); only the sum means anything.
CREATE TABLE "user_count_stripes" (
	"stripe" smallint PRIMARY KEY NOT NULL,
	"user_count" bigint NOT NULL,
	CONSTRAINT "user_count_stripes_stripe_range" CHECK ("stripe" between 0 and 15)
);
--> statement-breakpoint
-- No sign-up may commit between the count below and the triggers taking over.
LOCK TABLE "users" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "user_count_stripes" ("stripe", "user_count")
SELECT stripe, CASE WHEN stripe = 0 THEN (SELECT count(*) FROM "users") ELSE 0 END
  FROM generate_series(0, 15) AS stripe;
--> statement-breakpoint
-- Statement triggers with transition tables: a bulk insert (a seed, an import) updates a
-- stripe once, not once per row.
CREATE FUNCTION count_user_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE user_count_stripes SET user_count = 0;
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE user_count_stripes SET user_count = user_count + (SELECT count(*) FROM inserted_users)
     WHERE stripe = pg_backend_pid() % 16;
  ELSE
    UPDATE user_count_stripes SET user_count = user_count - (SELECT count(*) FROM deleted_users)
     WHERE stripe = pg_backend_pid() % 16;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_counted_on_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS inserted_users
  FOR EACH STATEMENT EXECUTE FUNCTION count_user_changes();
--> statement-breakpoint
CREATE TRIGGER users_counted_on_delete AFTER DELETE ON users
  REFERENCING OLD TABLE AS deleted_users
  FOR EACH STATEMENT EXECUTE FUNCTION count_user_changes();
--> statement-breakpoint
CREATE TRIGGER users_counted_on_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION count_user_changes();
--> statement-breakpoint
-- The staff search asks the trigram indexes about the newest users first (ADR 022). Ids
-- are time-ordered and rows are appended, so a block-range index on id (a few kilobytes)
-- narrows the rows read to the blocks that hold an id range. A range not yet summarized
-- matches every search: autosummarize has autovacuum summarize each range once filled,
-- instead of at the next VACUUM (after 20 % more users).
CREATE INDEX "users_id_brin_idx" ON "users" USING brin ("id")
  WITH (pages_per_range = 32, autosummarize = on);
