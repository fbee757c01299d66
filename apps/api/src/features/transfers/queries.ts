import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import type { StepUpSpendArguments } from '../../money-out/queries.ts';
import { type ClaimRow, type IdempotencyClaim, wireJson } from '../../platform/idempotency.ts';
import { type SessionRow, sessionSpendingCtes } from '../../platform/sessions.ts';

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

/** Renumbers a statement's parameters ($1 becomes $(1 + offset)), to follow others. */
function afterParams(sql: string, offset: number): string {
  return sql.replace(/\$(\d+)/g, (_match, number: string) => `$${Number(number) + offset}`);
}

/**
 * quick_pay's arguments by name, as $1 to $19, for `quick_pay(...)` and quick_pay_caught.
 */
const quickPayNamedArguments = `p_idempotency_scope => $1, p_idempotency_key => $2, p_request_hash => $3,
       p_entry_id => $4, p_sender_user_id => $5, p_sender_wallet_id => $6,
       p_recipient_account_number => $7, p_recipient_email => $8,
       p_amount_minor => $9, p_currency => $10, p_memo => $11, p_note => $12,
       p_daily_limit_minor_by_level => $13::bigint[], p_step_up_code_id => $14,
       p_step_up_totp_step => $15, p_response_body => $16,
       p_recipient_lookups_key_hash => $17, p_recipient_lookups_max => $18,
       p_recipient_lookups_window_ms => $19`;

/**
 * Both sides' notifications (and the recipient's email) when the payment `q` did the work
 * (not for a replay), parameters $20 to $35. The recipient is known only inside the
 * statement, hence q.recipient_user_id (ADR 014), and so is their language: the texts are
 * English, put into each reader's language when read or sent (ADR 057).
 */
const quickPayNotifications = `CASE WHEN q.is_claimed THEN notify_user(
              p_id => $20, p_user_id => q.recipient_user_id, p_kind => $21, p_text => $22,
              p_link => $23, p_email_id => $24, p_email_subject => $25, p_email_body => $26,
              p_is_email_always => $27, p_is_english_source => true) END,
            CASE WHEN q.is_claimed THEN notify_user(
              p_id => $28, p_user_id => $5, p_kind => $29, p_text => $30,
              p_link => $31, p_email_id => $32, p_email_subject => $33, p_email_body => $34,
              p_is_email_always => $35, p_is_english_source => true) END`;

/** A Quick Pay's 35 parameters, in the order of the two pieces above. */
function quickPayParams(pay: QuickPayArguments): unknown[] {
  return [
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
  ];
}

/** Runs a whole Quick Pay as one statement; a refusal raises (db/sql-errors.ts). */
export async function callQuickPay(
  db: Queryable,
  pay: QuickPayArguments,
): Promise<QuickPayRow | undefined> {
  const found = await db.query<QuickPayRow>(
    `SELECT q.*, ${quickPayNotifications} FROM quick_pay(${quickPayNamedArguments}) q`,
    quickPayParams(pay),
    { preparedName: 'quick_pay' },
  );
  return found.rows[0];
}

/** The session a Quick Pay's statement reads, and the route's access as a condition on it. */
export type SessionLookUp = {
  /** $1 to $6 of platform/sessions.ts's `sessionSpendingCtes` (`sessionLookUpParams`). */
  params: unknown[];
  /** The condition, on the session row `alias`, with the terms version as `termsParam`. */
  gate: (alias: string, termsParam: string) => string;
  termsVersion: string | null;
};

/**
 * The session's row (none: not live), whether it spent a request, and quick_pay_caught's
 * answer: `is_attempted` false when the session did not let the payment run.
 */
export type QuickPayInSessionRow = SessionRow & {
  is_spent: boolean;
  is_attempted: boolean;
  is_claimed: boolean | null;
  request_hash: string | null;
  response_status: number | null;
  response_body: unknown;
  recipient_user_id: string | null;
  refused_sql_state: string | null;
  refused_message: string | null;
  refused_hint: string | null;
  refused_detail: string | null;
};

const lookUpParamsCount = 6;
const quickPayParamsCount = 35;

/**
 * A Quick Pay and its request's session in one statement, one transaction (ADR 057): the
 * session look-up and its request-limit spend (sessions.ts), then quick_pay only when the
 * session is live, let into the route (`lookUp.gate`), had a request left, and is the
 * sender's with the wallet the payment was built for. quick_pay_caught answers a refusal
 * as data, so the spend commits with it. Durable commit: it may move money.
 */
export async function callQuickPayInSession(
  db: Queryable,
  lookUp: SessionLookUp,
  pay: QuickPayArguments,
): Promise<QuickPayInSessionRow | undefined> {
  const termsParam = `$${lookUpParamsCount + quickPayParamsCount + 1}`;
  // Both MATERIALIZED: each runs exactly once, whatever plan the statement gets. Inlined,
  // the payment's function scan could be run again for the same session row, and the
  // second run would find the key the first one claimed.
  const quickPaySql = afterParams(
    `paid AS MATERIALIZED (
       SELECT q.* FROM gate, quick_pay_caught(p_may_pay => $$MAY_PAY$$, ${quickPayNamedArguments}) q)
     SELECT gate.*, q.*, ${quickPayNotifications} FROM gate, paid q`,
    lookUpParamsCount,
  );
  const mayPay = `gate.is_spent AND ${lookUp.gate('gate', termsParam)}
     AND gate.user_id = $${lookUpParamsCount + 5}::uuid
     AND gate.wallet_id = $${lookUpParamsCount + 6}::uuid
     AND gate.wallet_currency = $${lookUpParamsCount + 10}::text`;
  const found = await db.query<QuickPayInSessionRow>(
    `WITH ${sessionSpendingCtes},
       gate AS MATERIALIZED (SELECT session.*, EXISTS (SELECT 1 FROM spent) AS is_spent FROM session),
     ${quickPaySql.replace('$$MAY_PAY$$', mayPay)}`,
    [...lookUp.params, ...quickPayParams(pay), lookUp.termsVersion],
    { preparedName: 'quick_pay_in_session' },
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
