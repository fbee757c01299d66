CREATE OR REPLACE FUNCTION ledger_release(p_hold_id uuid)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_hold record;
BEGIN
  SELECT * INTO v_hold FROM ledger_settle_hold(p_hold_id, 'released');
  UPDATE account_balances SET held_minor = held_minor - v_hold.amount_minor
   WHERE account_id = v_hold.account_id AND bucket = 0;
END $$;
