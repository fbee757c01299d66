-- A notification and, when it goes by email, its email, in one statement of the caller's
-- transaction (platform/notifications.ts). An email that is not about security goes only
-- to people who left the switch on; the address is read here, so callers need not. Quick
-- Pay calls it inside its own single statement (ADR 014), before it knows who the
-- recipient is or which language they read: with p_is_english_source its text, subject
-- and body are English, put into the reader's language when read (the notification) or
-- sent (the email, in the recipient's language read here; NULL is English) (ADR 057).
CREATE FUNCTION notify_user(
  p_id uuid, p_user_id uuid, p_kind text, p_text text, p_link text,
  p_email_id uuid, p_email_subject text, p_email_body text, p_is_email_always boolean,
  p_is_english_source boolean DEFAULT false
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO notifications (id, user_id, kind, text, link, is_english_source)
  VALUES (p_id, p_user_id, p_kind, p_text, p_link, p_is_english_source);
  IF p_email_id IS NOT NULL THEN
    INSERT INTO outbox_emails (id, to_address, subject, text_body, send_in_language)
    SELECT p_email_id, u.email, p_email_subject, p_email_body,
           CASE WHEN p_is_english_source THEN coalesce(u.language, u.sign_in_language, 'en') END
      FROM users u WHERE u.id = p_user_id AND (p_is_email_always OR u.wants_notification_emails);
  END IF;
END $$;
