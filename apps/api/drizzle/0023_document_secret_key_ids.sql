-- COFFER_SECRET_KEY may hold several keys (npm run rotate-keys): each identity document
-- records the id of the key its file is encrypted with. Every file stored so far was
-- encrypted with the one key there was, whose id is 'legacy'; later rows name theirs.
ALTER TABLE kyc_documents ADD COLUMN secret_key_id text NOT NULL DEFAULT 'legacy';
--> statement-breakpoint
ALTER TABLE kyc_documents ALTER COLUMN secret_key_id DROP DEFAULT;
