-- An account whose password someone else has seen (npm run create-admin prints or takes
-- it) must choose its own before anything else: the API answers such a session only on
-- the routes that change the password, tell who is signed in, or sign out. Changing or
-- resetting the password clears it.
ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;
