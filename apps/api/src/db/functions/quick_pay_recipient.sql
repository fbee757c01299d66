-- The customer a sender typed, by a wallet's account number (that wallet) or their email
-- (stored lower-cased; their main wallet). Staff have no wallet and are never found. The
-- number is compared as the column's char(10): compared as text, the column would be cast
-- row by row and its unique index left unused.
CREATE OR REPLACE FUNCTION quick_pay_recipient(p_account_number text, p_email text)
RETURNS TABLE (user_id uuid, masked_name text, wallet_id uuid, currency text)
LANGUAGE sql STABLE AS $$
  SELECT u.id, mask_name(u.username), a.id, a.currency::text
    FROM accounts a JOIN users u ON u.id = a.owner_user_id
   WHERE u.role = 'customer' AND a.kind = 'customer'
     AND a.id = (SELECT id FROM accounts WHERE number = p_account_number::char(10) AND kind = 'customer'
                 UNION ALL
                 SELECT w.id FROM users e JOIN accounts w ON w.owner_user_id = e.id
                                AND w.kind = 'customer' AND w.is_main
                  WHERE e.email = p_email
                 LIMIT 1)
$$;
