-- Marks an active hold settled and returns its account and amount; the hold row lock
-- makes a second capture or release of the same hold wait and then fail.
CREATE OR REPLACE FUNCTION ledger_settle_hold(p_hold_id uuid, p_status hold_status)
RETURNS TABLE (account_id uuid, amount_minor bigint) LANGUAGE plpgsql AS $$
DECLARE
  v_account_id uuid;
  v_amount bigint;
BEGIN
  UPDATE holds h SET status = p_status, settled_at = now()
   WHERE h.id = p_hold_id AND h.status = 'active'
  RETURNING h.account_id, h.amount_minor INTO v_account_id, v_amount;
  IF v_account_id IS NULL THEN
    IF EXISTS (SELECT 1 FROM holds h WHERE h.id = p_hold_id) THEN
      RAISE EXCEPTION USING ERRCODE = 'CF002', MESSAGE = 'hold is not active';
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CF004', MESSAGE = 'hold not found';
  END IF;
  RETURN QUERY SELECT v_account_id, v_amount;
END $$;
