-- Staff find a customer by what the customer quotes on the phone (issue #31): a phone, an
-- account number, a card's last four digits or a dispute reference, each matched exactly.
-- Account numbers and dispute references have unique indexes already. A last four is
-- shared by about one card in 10,000, so its index also holds the user id: the search
-- reads a page of the newest matching customers, not every one.
CREATE INDEX "users_phone_idx" ON "users" ("phone") WHERE "phone" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "cards_last_four_idx" ON "cards" ("last_four", "user_id")
  WHERE "last_four" IS NOT NULL;
--> statement-breakpoint
-- A dispute waits on its refund until an admin decides it: each money request's decision
-- looks for the dispute it refunds.
CREATE INDEX "disputes_refund_request_idx" ON "disputes" ("refund_request_id")
  WHERE "refund_request_id" IS NOT NULL;
