-- A closed customer's wallet (migration 0045, ADR 050) takes no line and no hold: fired on
-- its balance row, which every posting and hold updates under the row's lock, whichever
-- ledger function writes it. The trigger's WHEN reads the flag, so open wallets and
-- system accounts never call this function.
CREATE OR REPLACE FUNCTION refuse_closed_wallet_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CF005', MESSAGE = 'the account is closed',
    DETAIL = NEW.account_id::text;
END $$;
