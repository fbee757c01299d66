-- "Alice Morgan" → "A*** M***": enough to recognise a customer, not to learn their name.
-- Names are masked in the queries that read them, so another customer's full name never
-- reaches the API for a Quick Pay, its preview or the lists that show it.
CREATE OR REPLACE FUNCTION mask_name(p_name text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  -- One expression, so the planner inlines it into the query that calls it.
  SELECT regexp_replace(btrim(regexp_replace(p_name, '\s+', ' ', 'g')), '(\S)\S*', '\1***', 'g')
$$;
