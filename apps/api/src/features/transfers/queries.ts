import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import type { StepUpSpendArguments } from '../../money-out/queries.ts';
import { type ClaimRow, type IdempotencyClaim, wireJson } from '../../platform/idempotency.ts';

/** The customer a sender typed: who they are, their name masked, and their wallet. */
export type RecipientRow = {
  user_id: string;
  masked_name: string;
  wallet_id: AccountId;
  currency: string;
};

/**
 * The customer with this wallet account number or this email (stored lower-cased): the
 * same look-up quick_pay makes (db/functions/quick_pay_recipient.sql). Staff have no wallet and are never found,
 * nor is a closed account (ADR 050; quick_pay refuses one under the wallet's lock).
 */
export async function findRecipient(
  db: Queryable,
  typed: { accountNumber: string | null; email: string | null },
): Promise<RecipientRow | null> {
  const found = await db.query<RecipientRow>(
    `SELECT r.* FROM quick_pay_recipient(p_account_number => $1, p_email => $2) r
      WHERE NOT EXISTS (SELECT 1 FROM account_balances b
                         WHERE b.account_id = r.wallet_id AND b.bucket = 0 AND b.is_closed)`,
    [typed.accountNumber, typed.email],
  );
  return found.rows[0] ?? null;
}

/** A Quick Pay as db/functions/quick_pay.sql takes it. */
export type QuickPayArguments = {
  claim: IdempotencyClaim;
  entryId: string;
  senderUserId: string;
  senderWalletId: string;
  recipient: { accountNumber: string | null; email: string | null };
  amountMinor: bigint;
  currency: string;
  memo: string;
  note: string | null;
  dailyLimitMinorByLevel: (string | null)[];
  stepUp: StepUpSpendArguments;
  /** The answer without what quick_pay adds (entryId, recipientMaskedName, createdAt). */
  responseBody: unknown;
  /** The sender's recipient look-ups: quick_pay refuses when none is left. */
  recipientLookups: { keyHash: string; max: number; windowMs: number };
  /**
   * notify_user's arguments (platform/notifications.ts `notifyUserParams`) for the
   * recipient and the sender, written in the same statement when quick_pay did the work.
   */
  notifications: { toRecipient: unknown[]; toSender: unknown[] };
};

/** notify_user's arguments without the person's id, which the statement supplies. */
function withoutUserId(notifyUserArguments: unknown[]): unknown[] {
  const [id, , ...rest] = notifyUserArguments;
  return [id, ...rest];
}

export type QuickPayRow = ClaimRow & { recipient_user_id: string };

/** Runs a whole Quick Pay as one statement; a refusal raises (db/sql-errors.ts). */
export async function callQuickPay(
  db: Queryable,
  pay: QuickPayArguments,
): Promise<QuickPayRow | undefined> {
  // Both sides' notifications (and the recipient's email) go in the same statement, only
  // when quick_pay did the work (not for a replay): one statement, as ADR 009 wants. The
  // recipient is known only inside it, hence q.recipient_user_id (ADR 014).
  const found = await db.query<QuickPayRow>(
    `SELECT q.*,
            CASE WHEN q.is_claimed THEN notify_user(
              p_id => $20, p_user_id => q.recipient_user_id, p_kind => $21, p_text => $22,
              p_link => $23, p_email_id => $24, p_email_subject => $25, p_email_body => $26,
              p_is_email_always => $27) END,
            CASE WHEN q.is_claimed THEN notify_user(
              p_id => $28, p_user_id => $5, p_kind => $29, p_text => $30,
              p_link => $31, p_email_id => $32, p_email_subject => $33, p_email_body => $34,
              p_is_email_always => $35) END
       FROM quick_pay(
       p_idempotency_scope => $1, p_idempotency_key => $2, p_request_hash => $3,
       p_entry_id => $4, p_sender_user_id => $5, p_sender_wallet_id => $6,
       p_recipient_account_number => $7, p_recipient_email => $8,
       p_amount_minor => $9, p_currency => $10, p_memo => $11, p_note => $12,
       p_daily_limit_minor_by_level => $13::bigint[], p_step_up_code_id => $14,
       p_step_up_totp_step => $15, p_response_body => $16,
       p_recipient_lookups_key_hash => $17, p_recipient_lookups_max => $18,
       p_recipient_lookups_window_ms => $19) q`,
    [
      pay.claim.scope,
      pay.claim.key,
      pay.claim.requestHash,
      pay.entryId,
      pay.senderUserId,
      pay.senderWalletId,
      pay.recipient.accountNumber,
      pay.recipient.email,
      pay.amountMinor.toString(),
      pay.currency,
      pay.memo,
      pay.note,
      pay.dailyLimitMinorByLevel,
      pay.stepUp.codeId,
      pay.stepUp.totpStep,
      wireJson(pay.responseBody),
      pay.recipientLookups.keyHash,
      pay.recipientLookups.max,
      pay.recipientLookups.windowMs,
      ...withoutUserId(pay.notifications.toRecipient),
      ...withoutUserId(pay.notifications.toSender),
    ],
    { preparedName: 'quick_pay' },
  );
  return found.rows[0];
}

export type TransferListRow = {
  entry_id: string;
  amount_minor: bigint;
  currency: string;
  note: string | null;
  created_at: Date;
  is_sent: boolean;
  counterparty_masked_name: string;
};

/** A customer's Quick Pays, sent and received, newest first (entry ids are UUIDv7). */
export async function transfersOfUser(
  db: Queryable,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<TransferListRow[]> {
  const found = await db.query<TransferListRow>(
    `SELECT t.entry_id, t.amount_minor, t.currency, t.note, t.created_at,
            t.sender_user_id = $1 AS is_sent, mask_name(other.username) AS counterparty_masked_name
       FROM transfers t
       JOIN users other ON other.id = CASE WHEN t.sender_user_id = $1
                                           THEN t.recipient_user_id ELSE t.sender_user_id END
      WHERE (t.sender_user_id = $1 OR t.recipient_user_id = $1)
        AND ($2::uuid IS NULL OR t.entry_id < $2::uuid)
      ORDER BY t.entry_id DESC LIMIT $3`,
    [userId, page.cursor ?? null, page.limit],
  );
  return found.rows;
}
