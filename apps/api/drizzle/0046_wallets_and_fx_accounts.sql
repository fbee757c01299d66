-- Several wallets per customer and exchange between currencies (issue #33, ADRs 051, 052).
-- The account kinds of an exchange: the operator's position in each currency, the markup
-- it earns and the whole minor units rounding leaves it; the entry kind of an exchange.
-- The new enum values are first used by later migrations and code (PostgreSQL refuses a
-- value added in the same transaction).
ALTER TYPE "public"."account_kind" ADD VALUE IF NOT EXISTS 'fx_position';--> statement-breakpoint
ALTER TYPE "public"."account_kind" ADD VALUE IF NOT EXISTS 'fx_income';--> statement-breakpoint
ALTER TYPE "public"."account_kind" ADD VALUE IF NOT EXISTS 'fx_rounding';--> statement-breakpoint
ALTER TYPE "public"."entry_kind" ADD VALUE IF NOT EXISTS 'exchange';--> statement-breakpoint
-- Every wallet that exists is its customer's main one: the one their country gave them at
-- sign-up, which every single-wallet feature keeps using. A constant default adds the
-- column without rewriting the table.
ALTER TABLE "accounts" ADD COLUMN "is_main" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_one_main_wallet_per_customer" ON "accounts" USING btree ("owner_user_id") WHERE "accounts"."kind" = 'customer' and "accounts"."is_main";--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_one_wallet_per_customer_and_currency" ON "accounts" USING btree ("owner_user_id","currency") WHERE "accounts"."kind" = 'customer';--> statement-breakpoint
-- The checks of every money movement out of a customer's wallet, in PRODUCT.md's order:
-- frozen, verified email, level, daily limit (per kind and UTC day). It locks the wallet's
-- balance row first, so two movements of one customer are checked one after the other
-- and cannot both pass a limit only one of them fits, and counts the amount into the
-- day's total: a movement refused later (the balance is the ledger's check) rolls the
-- count back with it. p_daily_limit_minor_by_level[level] is the limit in the wallet's
-- minor units; NULL: the kind is not allowed at that level. Money goes out of the customer's
-- main wallet (migration 0046: a customer may hold more wallets, one per currency).
CREATE OR REPLACE FUNCTION money_out_lock(
  p_user_id uuid, p_kind text, p_amount_minor bigint, p_daily_limit_minor_by_level bigint[]
) RETURNS TABLE (username text, level smallint, wallet_id uuid, wallet_number text, currency text)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_sender record;
  v_limit_minor bigint;
  v_spent_minor bigint;
BEGIN
  SELECT u.username, u.level, u.email_verified_at, u.frozen_at, u.frozen_reason,
         a.id AS wallet_id, a.number AS wallet_number, a.currency
    INTO v_sender
    FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer' AND a.is_main
    JOIN account_balances b ON b.account_id = a.id
   WHERE u.id = p_user_id AND u.role = 'customer'
     FOR UPDATE OF b;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: no such customer wallet',
      HINT = 'not_found';
  END IF;
  IF v_sender.frozen_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: the account is frozen',
      HINT = 'account_frozen',
      DETAIL = jsonb_build_object('reason', v_sender.frozen_reason)::text;
  END IF;
  IF v_sender.email_verified_at IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: the email is not verified',
      HINT = 'email_not_verified';
  END IF;
  v_limit_minor := p_daily_limit_minor_by_level[v_sender.level];
  IF v_limit_minor IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: the level is too low',
      HINT = 'level_too_low';
  END IF;
  INSERT INTO money_out_days AS d (user_id, kind, day, spent_minor)
  VALUES (p_user_id, p_kind, (now() AT TIME ZONE 'UTC')::date, p_amount_minor)
  ON CONFLICT (user_id, kind, day) DO UPDATE SET spent_minor = d.spent_minor + p_amount_minor
  RETURNING d.spent_minor INTO v_spent_minor;
  IF v_spent_minor > v_limit_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: over the daily limit',
      HINT = 'daily_limit_exceeded',
      DETAIL = jsonb_build_object('spentMinor', (v_spent_minor - p_amount_minor)::text,
                                  'limitMinor', v_limit_minor::text)::text;
  END IF;
  RETURN QUERY SELECT v_sender.username::text, v_sender.level, v_sender.wallet_id,
                      v_sender.wallet_number::text, v_sender.currency::text;
END $$;--> statement-breakpoint
-- The customer a sender typed, by a wallet's account number (that wallet) or their email
-- (stored lower-cased; their main wallet). Staff have no wallet and are never found. The
-- number is compared as the column's char(10): compared as text, the column would be cast
-- row by row and its unique index left unused.
CREATE OR REPLACE FUNCTION quick_pay_recipient(p_account_number text, p_email text)
RETURNS TABLE (user_id uuid, masked_name text, wallet_id uuid, currency text)
LANGUAGE sql STABLE AS $$
  SELECT u.id, mask_name(u.username), a.id, a.currency::text
    FROM accounts a JOIN users u ON u.id = a.owner_user_id
   WHERE u.role = 'customer' AND a.kind = 'customer'
     AND a.id = (SELECT id FROM accounts WHERE number = p_account_number::char(10) AND kind = 'customer'
                 UNION ALL
                 SELECT w.id FROM users e JOIN accounts w ON w.owner_user_id = e.id
                                AND w.kind = 'customer' AND w.is_main
                  WHERE e.email = p_email
                 LIMIT 1)
$$;
