-- The checks of every money movement out of a customer's wallet, in PRODUCT.md's order:
-- frozen, verified email, level, daily limit (per kind, currency and UTC day). It locks
-- the wallet's balance row first, so two movements out of one wallet are checked one after
-- the other and cannot both pass a limit only one of them fits, and counts the amount into
-- the day's total: a movement refused later (the balance is the ledger's check) rolls the
-- count back with it. p_daily_limit_minor_by_level[level] is the limit in the wallet's
-- minor units; NULL: the kind is not allowed at that level. Money goes out of p_wallet_id,
-- which must be the customer's own wallet (another's is not found), or out of their main
-- wallet when it is NULL (migration 0051: the customer chooses among their wallets). A
-- limit is a currency's (COFFER_LIMITS), so the day's totals are kept per currency: one
-- wallet per currency makes that per wallet too.
CREATE FUNCTION money_out_lock(
  p_user_id uuid, p_kind text, p_amount_minor bigint, p_daily_limit_minor_by_level bigint[],
  p_wallet_id uuid DEFAULT NULL
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
    FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
                                AND (a.id = p_wallet_id OR (p_wallet_id IS NULL AND a.is_main))
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
  INSERT INTO money_out_days AS d (user_id, currency, kind, day, spent_minor)
  VALUES (p_user_id, v_sender.currency, p_kind, (now() AT TIME ZONE 'UTC')::date, p_amount_minor)
  -- By the key's name: the output column `currency` would make its column list ambiguous.
  ON CONFLICT ON CONSTRAINT money_out_days_pk DO UPDATE SET spent_minor = d.spent_minor + p_amount_minor
  RETURNING d.spent_minor INTO v_spent_minor;
  IF v_spent_minor > v_limit_minor THEN
    RAISE EXCEPTION USING ERRCODE = 'CF101', MESSAGE = 'money out refused: over the daily limit',
      HINT = 'daily_limit_exceeded',
      DETAIL = jsonb_build_object('spentMinor', (v_spent_minor - p_amount_minor)::text,
                                  'limitMinor', v_limit_minor::text)::text;
  END IF;
  RETURN QUERY SELECT v_sender.username::text, v_sender.level, v_sender.wallet_id,
                      v_sender.wallet_number::text, v_sender.currency::text;
END $$;
