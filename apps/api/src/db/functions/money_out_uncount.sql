-- Takes a movement that will not happen after all (a rejected payout) out of the total of
-- the day it was made, in the currency it was counted in.
CREATE FUNCTION money_out_uncount(
  p_user_id uuid, p_kind text, p_made_at timestamptz, p_amount_minor bigint, p_currency text
) RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  UPDATE money_out_days SET spent_minor = spent_minor - p_amount_minor
   WHERE user_id = p_user_id AND currency = p_currency::char(3) AND kind = p_kind
     AND day = (p_made_at AT TIME ZONE 'UTC')::date;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CF900', MESSAGE = 'money out was never counted';
  END IF;
END $$;
