-- Spends a checked step-up code in the money movement's transaction: a TOTP step only
-- once and only forward, an emailed code once and before it expires.
CREATE OR REPLACE FUNCTION step_up_spend(p_user_id uuid, p_code_id uuid, p_totp_step bigint)
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF p_totp_step IS NOT NULL THEN
    UPDATE users SET totp_last_used_step = p_totp_step
     WHERE id = p_user_id AND (totp_last_used_step IS NULL OR totp_last_used_step < p_totp_step);
  ELSE
    UPDATE step_up_codes SET consumed_at = now()
     WHERE id = p_code_id AND user_id = p_user_id AND consumed_at IS NULL AND expires_at > now();
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF102', MESSAGE = 'step-up code already spent or expired',
      HINT = 'wrong_code';
  END IF;
END $$;
