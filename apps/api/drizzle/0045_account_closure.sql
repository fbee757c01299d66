-- Account closure (issue #34 item 4, ADR 050). `users.closed_at` ends sign-in, sessions
-- and emails; `account_balances.is_closed` is the ledger's own copy on the wallet's row,
-- which every posting to the wallet locks, so a payment and a closure cannot both commit.
-- `personal_data_removed_at`: when the retention job removed the person's data.
-- `account_reopenings`: an admin's request to reopen, decided by a second admin.
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "personal_data_removed_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "users_closed_retention_idx" ON "users" USING btree ("closed_at") WHERE "closed_at" IS NOT NULL AND "personal_data_removed_at" IS NULL;
--> statement-breakpoint
ALTER TABLE "account_balances" ADD COLUMN "is_closed" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "account_reopenings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"requested_by_user_id" uuid NOT NULL,
	"decided_by_user_id" uuid,
	"decision_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "account_reopenings_status_known" CHECK ("account_reopenings"."status" IN ('pending', 'approved', 'rejected', 'cancelled')),
	CONSTRAINT "account_reopenings_decider_is_not_requester" CHECK ("account_reopenings"."decided_by_user_id" IS NULL OR "account_reopenings"."decided_by_user_id" <> "account_reopenings"."requested_by_user_id" OR "account_reopenings"."status" = 'cancelled')
);
--> statement-breakpoint
ALTER TABLE "account_reopenings" ADD CONSTRAINT "account_reopenings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_reopenings" ADD CONSTRAINT "account_reopenings_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "account_reopenings" ADD CONSTRAINT "account_reopenings_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "account_reopenings_one_pending_idx" ON "account_reopenings" USING btree ("user_id") WHERE "status" = 'pending';
--> statement-breakpoint
CREATE INDEX "account_reopenings_user_idx" ON "account_reopenings" USING btree ("user_id","created_at");
--> statement-breakpoint
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
      -- A closed wallet (migration 0045, ADR 050) takes no line: the flag sits on the row
      -- this update locks, so a closure and a payment to the wallet cannot both commit.
      UPDATE account_balances
         SET balance_minor = balance_minor + v_delta.amount
       WHERE account_id = v_delta.account_id AND bucket = 0
         AND balance_minor + v_delta.amount - held_minor >= 0 AND NOT is_closed;
      IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM account_balances
                    WHERE account_id = v_delta.account_id AND bucket = 0 AND is_closed) THEN
          RAISE EXCEPTION USING ERRCODE = 'CF005', MESSAGE = 'the account is closed',
            DETAIL = v_delta.account_id::text;
        END IF;
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION quick_pay_recipient(p_account_number text, p_email text)
RETURNS TABLE (user_id uuid, masked_name text, wallet_id uuid, currency text)
LANGUAGE sql STABLE AS $$
  SELECT u.id, mask_name(u.username), a.id, a.currency::text
    FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
   WHERE u.role = 'customer' AND u.closed_at IS NULL
     AND u.id = (SELECT owner_user_id FROM accounts WHERE number = p_account_number::char(10)
                 UNION ALL
                 SELECT id FROM users WHERE email = p_email
                 LIMIT 1)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION quick_pay(
  p_idempotency_scope text, p_idempotency_key text, p_request_hash text,
  p_entry_id uuid, p_sender_user_id uuid, p_sender_wallet_id uuid,
  p_recipient_account_number text, p_recipient_email text,
  p_amount_minor bigint, p_currency text, p_memo text, p_note text,
  p_daily_limit_minor_by_level bigint[], p_step_up_code_id uuid, p_step_up_totp_step bigint,
  p_response_body jsonb, p_recipient_lookups_key_hash text, p_recipient_lookups_max int,
  p_recipient_lookups_window_ms bigint
) RETURNS TABLE (is_claimed boolean, request_hash text, response_status int, response_body jsonb,
                 recipient_user_id uuid)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_recipient record;
  v_body jsonb;
  v_claim record;
  v_sender_wallet_id uuid;
BEGIN
  SELECT * INTO v_recipient FROM quick_pay_recipient(p_recipient_account_number, p_recipient_email);
  v_body := p_response_body || jsonb_build_object(
    'entryId', p_entry_id,
    'recipientMaskedName', v_recipient.masked_name,
    -- The same instant JavaScript's toISOString() would print.
    'createdAt', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));

  SELECT * INTO v_claim
    FROM idempotency_claim(p_scope => p_idempotency_scope, p_key => p_idempotency_key,
                           p_request_hash => p_request_hash, p_response_status => 201,
                           p_response_body => v_body);
  IF v_claim.is_claimed THEN
    -- A recipient not found locks the sender's wallet only (IN ignores the NULL).
    PERFORM 1 FROM account_balances
      WHERE account_id IN (p_sender_wallet_id, v_recipient.wallet_id)
      ORDER BY account_id FOR UPDATE;
    SELECT l.wallet_id INTO v_sender_wallet_id
      FROM money_out_lock(p_user_id => p_sender_user_id, p_kind => 'transfer',
                          p_amount_minor => p_amount_minor,
                          p_daily_limit_minor_by_level => p_daily_limit_minor_by_level) l;
    IF v_sender_wallet_id <> p_sender_wallet_id THEN
      RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a customer keeps one wallet';
    END IF;
    -- ledger_post refuses it too; asked here so that it is answered before the recipient.
    IF (SELECT sum(b.balance_minor - b.held_minor) FROM account_balances b
         WHERE b.account_id = p_sender_wallet_id) < p_amount_minor THEN
      RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
        DETAIL = p_sender_wallet_id::text;
    END IF;
    -- key_hash is char(64): compared with the text parameter as it is, the column would be
    -- cast to text for every row and its primary key left unused (a scan of the table).
    IF EXISTS (SELECT 1 FROM attempt_counters c
                WHERE c.key_hash = p_recipient_lookups_key_hash::char(64)
                  AND c.attempt_count >= p_recipient_lookups_max
                  AND c.window_started_at > now() - p_recipient_lookups_window_ms * interval '1 millisecond') THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'no recipient look-ups left',
        HINT = 'too_many_attempts';
    END IF;
    -- A recipient whose account closed after the look-up above is refused as one never
    -- found: read again under the wallet's lock, which the closure takes too (ADR 050).
    IF v_recipient.user_id IS NULL
       OR EXISTS (SELECT 1 FROM account_balances
                   WHERE account_id = v_recipient.wallet_id AND bucket = 0 AND is_closed) THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'no such recipient',
        HINT = 'recipient_not_found';
    END IF;
    IF v_recipient.user_id = p_sender_user_id THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'the recipient is the sender',
        HINT = 'own_account';
    END IF;
    IF v_recipient.currency <> p_currency THEN
      RAISE EXCEPTION USING ERRCODE = 'CF103', MESSAGE = 'the recipient''s wallet is in another currency',
        HINT = 'currency_mismatch',
        DETAIL = jsonb_build_object('recipientCurrency', v_recipient.currency)::text;
    END IF;
    IF p_step_up_code_id IS NOT NULL OR p_step_up_totp_step IS NOT NULL THEN
      PERFORM step_up_spend(p_user_id => p_sender_user_id, p_code_id => p_step_up_code_id,
                            p_totp_step => p_step_up_totp_step);
    END IF;
    PERFORM ledger_post(p_entry_id => p_entry_id, p_kind => 'transfer', p_memo => p_memo,
                        p_idempotency_key => NULL, p_actor_user_id => p_sender_user_id,
                        p_account_ids => ARRAY[p_sender_wallet_id, v_recipient.wallet_id],
                        p_amounts => ARRAY[-p_amount_minor, p_amount_minor]);
    INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor, currency,
                           note, created_at)
    VALUES (p_entry_id, p_sender_user_id, v_recipient.user_id, p_amount_minor, p_currency,
            p_note, now());
  END IF;
  RETURN QUERY SELECT v_claim.is_claimed, v_claim.request_hash, v_claim.response_status,
                      v_claim.response_body, v_recipient.user_id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bulk_pay_lines(p_bulk_payment_id uuid, p_line_numbers int[])
RETURNS TABLE (line_number int, is_paid boolean, amount_minor bigint, recipient_user_id uuid)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_file record;
  v_line record;
  v_available_minor bigint;
  v_entry_id uuid;
  v_is_replay boolean;
  v_is_recipient_closed boolean;
BEGIN
  SELECT b.user_id, b.wallet_id, b.currency, b.confirmed_at INTO v_file
    FROM bulk_payments b WHERE b.id = p_bulk_payment_id;
  SELECT sum(a.balance_minor - a.held_minor) INTO v_available_minor
    FROM account_balances a WHERE a.account_id = v_file.wallet_id;
  FOR v_line IN
    SELECT l.line_number, l.recipient_user_id, l.recipient_wallet_id, l.amount_minor, l.reference
      FROM bulk_payment_lines l
     WHERE l.bulk_payment_id = p_bulk_payment_id AND l.line_number = ANY (p_line_numbers)
       AND l.status = 'pending'
     ORDER BY l.line_number
  LOOP
    -- A recipient whose account closed after the upload is refused, not paid (ADR 050):
    -- the ledger would refuse the line and end the whole batch.
    v_is_recipient_closed := EXISTS (SELECT 1 FROM account_balances a
                                      WHERE a.account_id = v_line.recipient_wallet_id
                                        AND a.bucket = 0 AND a.is_closed);
    is_paid := v_line.amount_minor <= v_available_minor AND NOT v_is_recipient_closed;
    IF is_paid THEN
      SELECT p.entry_id, p.is_replay INTO v_entry_id, v_is_replay
        FROM ledger_post(p_entry_id => gen_random_uuid(), p_kind => 'transfer',
                         p_memo => coalesce(nullif(v_line.reference, ''), 'Bulk payment'),
                         p_idempotency_key => 'bulk:' || p_bulk_payment_id || ':' || v_line.line_number,
                         p_actor_user_id => v_file.user_id,
                         p_account_ids => ARRAY[v_file.wallet_id, v_line.recipient_wallet_id],
                         p_amounts => ARRAY[-v_line.amount_minor, v_line.amount_minor]) p;
      IF NOT v_is_replay THEN
        v_available_minor := v_available_minor - v_line.amount_minor;
        INSERT INTO transfers (entry_id, sender_user_id, recipient_user_id, amount_minor,
                               currency, note, created_at)
        VALUES (v_entry_id, v_file.user_id, v_line.recipient_user_id, v_line.amount_minor,
                v_file.currency, nullif(v_line.reference, ''), v_file.confirmed_at);
      END IF;
    END IF;
    UPDATE bulk_payment_lines l
       SET status = CASE WHEN is_paid THEN 'paid' ELSE 'refused' END,
           refusal_reason = CASE WHEN is_paid THEN NULL
                                 WHEN v_is_recipient_closed THEN 'The recipient can no longer be paid.'
                                 ELSE 'Not enough money was left in your wallet for this line.' END,
           entry_id = CASE WHEN is_paid THEN v_entry_id END
     WHERE l.bulk_payment_id = p_bulk_payment_id AND l.line_number = v_line.line_number;
    line_number := v_line.line_number;
    amount_minor := v_line.amount_minor;
    recipient_user_id := v_line.recipient_user_id;
    RETURN NEXT;
  END LOOP;
END $$;
