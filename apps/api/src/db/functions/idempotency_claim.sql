-- Claims an idempotency key for the current transaction, with the answer when the caller
-- knows it already (otherwise status 0 until idempotency_store), or answers with what is
-- stored under it. A concurrent claim of the same key waits on the primary key until the
-- first transaction ends: after a commit it reads the stored answer, after a rollback it
-- claims.
CREATE OR REPLACE FUNCTION idempotency_claim(
  p_scope text, p_key text, p_request_hash text,
  p_response_status int DEFAULT 0, p_response_body jsonb DEFAULT 'null'
) RETURNS TABLE (is_claimed boolean, request_hash text, response_status int, response_body jsonb)
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  INSERT INTO idempotency_keys (scope, key, request_hash, response_status, response_body)
  VALUES (p_scope, p_key, p_request_hash, p_response_status, p_response_body)
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    RETURN QUERY SELECT true, p_request_hash, p_response_status, p_response_body;
    RETURN;
  END IF;
  RETURN QUERY SELECT false, k.request_hash::text, k.response_status, k.response_body
                 FROM idempotency_keys k WHERE k.scope = p_scope AND k.key = p_key;
END $$;
