CREATE OR REPLACE FUNCTION refuse_account_removal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CF901', MESSAGE = 'accounts are never deleted or renumbered';
END $$;
