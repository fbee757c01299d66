-- Foreign keys from journal lines and balance rows to accounts took a key-share lock on
-- the account row for every posting: on a hot account each posting made a MultiXact
-- (bench/README.md). Integrity stays: ledger_apply_lines checks every account exists
-- before writing, accounts are never deleted (below), and checkInvariants() looks for
-- lines or balance rows without their account.
ALTER TABLE "account_balances" DROP CONSTRAINT "account_balances_account_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "journal_lines" DROP CONSTRAINT "journal_lines_account_id_accounts_id_fk";
--> statement-breakpoint
CREATE FUNCTION refuse_account_removal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'CF901', MESSAGE = 'accounts are never deleted or renumbered';
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_no_delete BEFORE DELETE OR UPDATE OF id ON accounts
  FOR EACH ROW EXECUTE FUNCTION refuse_account_removal();
--> statement-breakpoint
CREATE TRIGGER accounts_no_truncate BEFORE TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION refuse_account_removal();
