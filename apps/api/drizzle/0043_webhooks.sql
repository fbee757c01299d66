-- Signed webhooks for integrators (issue #34 item 1, ADR 048). Endpoints an admin registers
-- (their secrets sealed with COFFER_SECRET_KEY's current key, as authenticator secrets are),
-- the events the ledger writes for them in the entry's own transaction, one delivery per
-- event and endpoint, and every attempt at one.
CREATE TYPE "public"."webhook_endpoint_status" AS ENUM('enabled', 'disabled');--> statement-breakpoint
CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'delivered', 'failed');--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"event_types" text[] NOT NULL,
	"status" "webhook_endpoint_status" DEFAULT 'enabled' NOT NULL,
	-- 'failing': the delivery job, after 24 hours of failures; 'staff': an admin.
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"secret_encrypted" text NOT NULL,
	-- The secret before the last roll, which still signs until it expires.
	"previous_secret_encrypted" text,
	"previous_secret_expires_at" timestamp with time zone,
	-- The first failed attempt since the last delivered one; null while it delivers.
	"failing_since" timestamp with time zone,
	"created_by_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_has_event_types" CHECK (cardinality("webhook_endpoints"."event_types") > 0),
	CONSTRAINT "webhook_endpoints_disabled_reason_known" CHECK ("webhook_endpoints"."disabled_reason" IN ('failing', 'staff'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"entry_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- No foreign key to the endpoint: each posting's key-share lock on its row would make
-- postings wait on an admin's change of it. The job only sends to endpoints that exist.
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL REFERENCES "webhook_events"("id"),
	"endpoint_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"status" "webhook_delivery_status" DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"give_up_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"replay_of_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"url" text NOT NULL,
	"status_code" integer,
	"error" text,
	"response_head" text NOT NULL
);
--> statement-breakpoint
-- What the job claims: pending deliveries by due time.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at","id") WHERE "status" = 'pending';--> statement-breakpoint
-- Whether an earlier delivery of the same wallet to the same endpoint still waits.
CREATE INDEX "webhook_deliveries_order_idx" ON "webhook_deliveries" USING btree ("endpoint_id","account_id","id") WHERE "status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id" DESC);--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
-- Housekeeping removes finished deliveries (their attempts go with them), then events no
-- delivery needs any more, after 30 days (platform/housekeeping.ts).
CREATE INDEX "webhook_deliveries_finished_at_idx" ON "webhook_deliveries" USING btree ("finished_at") WHERE "finished_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events" USING btree ("created_at");--> statement-breakpoint
CREATE OR REPLACE FUNCTION webhooks_enqueue_money(
  p_entry_id uuid, p_kind entry_kind, p_posted_at timestamptz,
  p_account_ids uuid[], p_amounts bigint[]
) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_type text := 'money.' || p_kind::text;
BEGIN
  WITH wallets AS (
    SELECT gen_random_uuid() AS event_id, a.id AS account_id, a.number, a.owner_user_id,
           a.currency, sum(line.amount)::bigint AS amount
      FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
      JOIN accounts a ON a.id = line.account_id
     WHERE a.kind = 'customer'
     GROUP BY a.id, a.number, a.owner_user_id, a.currency
    HAVING sum(line.amount) <> 0
  ), events AS (
    INSERT INTO webhook_events (id, type, entry_id, account_id, payload)
    SELECT w.event_id, v_type, p_entry_id, w.account_id, jsonb_build_object(
             'type', v_type,
             'timestamp', p_posted_at,
             'data', jsonb_build_object(
               'eventId', w.event_id,
               'entryId', p_entry_id,
               'kind', p_kind,
               'customerId', w.owner_user_id,
               'accountNumber', w.number,
               'amountMinor', w.amount::text,
               'currency', w.currency,
               'postedAt', p_posted_at))
      FROM wallets w
    RETURNING id, account_id
  )
  INSERT INTO webhook_deliveries (event_id, endpoint_id, account_id, next_attempt_at, give_up_at)
  SELECT ev.id, e.id, ev.account_id, now(), now() + interval '24 hours'
    FROM events ev CROSS JOIN webhook_endpoints e
   WHERE e.status = 'enabled' AND v_type = ANY (e.event_types)
   ORDER BY ev.account_id, e.id;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ledger_apply_lines(p_entry_id uuid, p_account_ids uuid[], p_amounts bigint[])
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_line_count int := coalesce(array_length(p_account_ids, 1), 0);
  v_known_accounts int;
  v_unbalanced_currency text;
  v_delta record;
  v_bucket smallint;
  v_entry record;
BEGIN
  IF v_line_count < 2 OR v_line_count <> coalesce(array_length(p_amounts, 1), 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'an entry needs two or more lines';
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(p_amounts) AS amount WHERE amount IS NULL OR amount = 0) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a line amount must not be zero';
  END IF;

  SELECT count(*) INTO v_known_accounts FROM accounts
   WHERE id IN (SELECT DISTINCT unnest(p_account_ids));
  IF v_known_accounts <> (SELECT count(DISTINCT id) FROM unnest(p_account_ids) AS id) THEN
    RAISE EXCEPTION USING ERRCODE = 'CF003', MESSAGE = 'account not found';
  END IF;

  SELECT a.currency INTO v_unbalanced_currency
    FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
    JOIN accounts a ON a.id = line.account_id
   GROUP BY a.currency HAVING sum(line.amount) <> 0 LIMIT 1;
  IF v_unbalanced_currency IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900',
      MESSAGE = 'entry does not sum to zero in ' || v_unbalanced_currency;
  END IF;

  -- Each line carries its entry's time and kind (migration 0042), so an account's lines
  -- in a period or of a kind are found by the line index alone, without the entries.
  SELECT created_at, kind INTO v_entry FROM journal_entries WHERE id = p_entry_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'lines need their entry first';
  END IF;

  INSERT INTO journal_lines (entry_id, account_id, amount_minor, currency, posted_at, kind)
  SELECT p_entry_id, line.account_id, line.amount, a.currency, v_entry.created_at, v_entry.kind
    FROM unnest(p_account_ids, p_amounts) WITH ORDINALITY AS line(account_id, amount, position)
    JOIN accounts a ON a.id = line.account_id
   ORDER BY line.position;

  -- Wallets first, each in id order: every posting takes its row locks in one global
  -- order, so two opposite transfers wait for each other instead of deadlocking.
  -- System accounts have no floor; spreading their writers over buckets keeps them apart.
  FOR v_delta IN
    SELECT line.account_id, sum(line.amount)::bigint AS amount, a.kind, a.bucket_count
      FROM unnest(p_account_ids, p_amounts) AS line(account_id, amount)
      JOIN accounts a ON a.id = line.account_id
     GROUP BY line.account_id, a.kind, a.bucket_count
    HAVING sum(line.amount) <> 0
     ORDER BY (a.kind <> 'customer'), line.account_id
  LOOP
    IF v_delta.kind = 'customer' THEN
      UPDATE account_balances
         SET balance_minor = balance_minor + v_delta.amount
       WHERE account_id = v_delta.account_id AND bucket = 0
         AND balance_minor + v_delta.amount - held_minor >= 0;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
          DETAIL = v_delta.account_id::text;
      END IF;
    ELSE
      -- The transaction id picks the bucket: concurrent transactions have consecutive ids,
      -- so they spread over the buckets, and a transaction that posts several entries keeps
      -- to one bucket per account, so two such transactions cannot take the same buckets in
      -- opposite orders and deadlock (a random bucket per posting could).
      v_bucket := (txid_current() % v_delta.bucket_count)::smallint;
      UPDATE account_balances
         SET balance_minor = balance_minor + v_delta.amount
       WHERE account_id = v_delta.account_id AND bucket = v_bucket;
      IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'system account bucket missing';
      END IF;
    END IF;
  END LOOP;

  -- Integrators' events (migration 0043, ADR 048), after the wallets' locks (see
  -- webhooks_enqueue_money). Most postings find no endpoint: the endpoints table has a
  -- handful of rows, so this look costs a scan of one page.
  IF EXISTS (SELECT 1 FROM webhook_endpoints
              WHERE status = 'enabled' AND ('money.' || v_entry.kind::text) = ANY (event_types)) THEN
    PERFORM webhooks_enqueue_money(p_entry_id, v_entry.kind, v_entry.created_at,
                                   p_account_ids, p_amounts);
  END IF;
END $$;
