CREATE OR REPLACE FUNCTION idempotency_store(p_scope text, p_key text, p_status int, p_body jsonb)
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE idempotency_keys SET response_status = p_status, response_body = p_body
   WHERE scope = p_scope AND key = p_key AND response_status = 0;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'idempotency key not claimed';
  END IF;
END $$;
