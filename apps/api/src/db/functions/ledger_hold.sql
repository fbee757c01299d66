CREATE OR REPLACE FUNCTION ledger_hold(p_hold_id uuid, p_account_id uuid, p_amount bigint, p_reason text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'a hold amount must be positive';
  END IF;
  UPDATE account_balances b
     SET held_minor = held_minor + p_amount
    FROM accounts a
   WHERE a.id = p_account_id AND a.kind = 'customer'
     AND b.account_id = a.id AND b.bucket = 0
     AND b.balance_minor - b.held_minor - p_amount >= 0;
  IF NOT FOUND THEN
    IF EXISTS (SELECT 1 FROM accounts WHERE id = p_account_id AND kind = 'customer') THEN
      RAISE EXCEPTION USING ERRCODE = 'CF001', MESSAGE = 'insufficient funds',
        DETAIL = p_account_id::text;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CF003', MESSAGE = 'account not found';
  END IF;
  INSERT INTO holds (id, account_id, amount_minor, reason)
  VALUES (p_hold_id, p_account_id, p_amount, p_reason);
END $$;
