CREATE OR REPLACE FUNCTION count_user_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE user_count_stripes SET user_count = 0;
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE user_count_stripes SET user_count = user_count + (SELECT count(*) FROM inserted_users)
     WHERE stripe = pg_backend_pid() % 16;
  ELSE
    UPDATE user_count_stripes SET user_count = user_count - (SELECT count(*) FROM deleted_users)
     WHERE stripe = pg_backend_pid() % 16;
  END IF;
  RETURN NULL;
END $$;
