-- Pays claimed lines of one bulk payment file (ADR 044) in one statement, instead of
-- several round trips a line. The caller claimed the lines (FOR UPDATE SKIP LOCKED) and
-- locked the wallets, the sender's included, so the sender's available balance read once
-- here stays true as the lines spend it: a line it no longer covers is marked refused with
-- the reason and the next goes on, with no subtransaction a line (ledger_post still refuses
-- an overdraft, which would end the whole batch). Any error ends the whole batch. A line's
-- entry carries the idempotency key `bulk:<file>:<line>`: posted before (a replay), it is
-- marked paid with that entry and no second transfers row. The transfers row is dated at
-- the file's confirmation, the day its total was counted against the limit.
CREATE FUNCTION bulk_pay_lines(p_bulk_payment_id uuid, p_line_numbers int[])
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
