-- The customer a sender typed, by their wallet's account number or their email (stored
-- lower-cased). Staff have no wallet and are never found, nor is a closed account (ADR 050). The number is compared as the
-- column's char(10): compared as text, the column would be cast row by row and its unique
-- index left unused.
CREATE OR REPLACE FUNCTION quick_pay_recipient(p_account_number text, p_email text)
RETURNS TABLE (user_id uuid, masked_name text, wallet_id uuid, currency text)
LANGUAGE sql STABLE AS $$
  SELECT u.id, mask_name(u.username), a.id, a.currency::text
    FROM users u JOIN accounts a ON a.owner_user_id = u.id AND a.kind = 'customer'
   WHERE u.role = 'customer' AND u.closed_at IS NULL
     AND u.id = (SELECT owner_user_id FROM accounts WHERE number = p_account_number::char(10)
                 UNION ALL
                 SELECT id FROM users WHERE email = p_email
                 LIMIT 1)
$$;
