import type { AuthorizationStatus, CardStatus } from '@coffer/contracts/cards';
import type { Queryable } from '../../db/client.ts';
import type { RowOf } from '../../db/rows.ts';
import type { cardAuthorizations, cards } from '../../db/schema.ts';
import type { AccountId, EntryId, HoldId } from '../../ledger/ledger.ts';
import { assert } from '../../platform/assert.ts';

export type CardRow = Omit<RowOf<typeof cards>, 'account_id' | 'fee_hold_id'> & {
  account_id: AccountId;
  fee_hold_id: HoldId | null;
  username: string;
  /** Whether `spent_minor` counts the current week (Monday 00:00 UTC on). */
  is_spent_this_week: boolean;
};

export type AuthorizationRow = Omit<RowOf<typeof cardAuthorizations>, 'hold_id' | 'account_id'> & {
  hold_id: HoldId | null;
  account_id: AccountId;
};

// The week is compared in SQL, as card_authorize counts it: no driver's date parsing between.
const selectCards = `
  SELECT c.*, u.username,
         coalesce(c.spent_week_start = date_trunc('week', now() AT TIME ZONE 'UTC')::date, false)
           AS is_spent_this_week
    FROM cards c JOIN users u ON u.id = c.user_id`;

export async function findCard(
  db: Queryable,
  cardId: string,
  options: { isLocked?: boolean } = {},
): Promise<CardRow | null> {
  const found = await db.query<CardRow>(
    `${selectCards} WHERE c.id = $1${options.isLocked ? ' FOR UPDATE OF c' : ''}`,
    [cardId],
  );
  return found.rows[0] ?? null;
}

/** The customer's newest card: the open one if any, else the last declined or closed. */
export async function latestCardOf(db: Queryable, userId: string): Promise<CardRow | null> {
  const found = await db.query<CardRow>(
    `${selectCards} WHERE c.user_id = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT 1`,
    [userId],
  );
  return found.rows[0] ?? null;
}

export async function cardsOfUser(
  db: Queryable,
  userId: string,
  rowsMax: number,
): Promise<CardRow[]> {
  const found = await db.query<CardRow>(
    `${selectCards} WHERE c.user_id = $1 ORDER BY c.created_at DESC, c.id DESC LIMIT $2`,
    [userId, rowsMax],
  );
  return found.rows;
}

/** The work queue: card requests waiting for staff, oldest first. */
export async function requestedCards(db: Queryable, rowsMax: number): Promise<CardRow[]> {
  const found = await db.query<CardRow>(
    `${selectCards} WHERE c.status = 'requested' ORDER BY c.created_at ASC, c.id ASC LIMIT $1`,
    [rowsMax],
  );
  return found.rows;
}

/**
 * Inserts a requested card unless the customer has an open one (the partial unique index
 * decides, so two requests at once cannot both pass); false when refused.
 */
export async function insertRequestedCard(
  tx: Queryable,
  card: {
    id: string;
    userId: string;
    accountId: AccountId;
    holderName: string;
    currency: string;
    feeMinor: bigint;
    feeHoldId: HoldId | null;
    weeklyLimitMinor: bigint;
  },
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO cards (id, user_id, account_id, holder_name, currency, fee_minor, fee_hold_id,
                        weekly_limit_minor)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (user_id) WHERE status IN ('requested', 'issued', 'frozen') DO NOTHING
     RETURNING id`,
    [
      card.id,
      card.userId,
      card.accountId,
      card.holderName,
      card.currency,
      card.feeMinor,
      card.feeHoldId,
      card.weeklyLimitMinor,
    ],
  );
  return inserted.rows.length === 1;
}

export async function hasOpenCard(db: Queryable, userId: string): Promise<boolean> {
  const found = await db.query(
    "SELECT 1 FROM cards WHERE user_id = $1 AND status IN ('requested', 'issued', 'frozen')",
    [userId],
  );
  return found.rows.length > 0;
}

/**
 * The card holder's freeze. Locked (in a transaction), the row is share-locked: an account
 * freeze, an update of the row, waits for the transaction to end or committed first and
 * is read here.
 */
export async function findCardholderFreeze(
  db: Queryable,
  userId: string,
  options: { isLocked?: boolean } = {},
): Promise<{ frozen_at: Date | null; frozen_reason: string | null }> {
  const found = await db.query<{ frozen_at: Date | null; frozen_reason: string | null }>(
    `SELECT frozen_at, frozen_reason FROM users WHERE id = $1${options.isLocked ? ' FOR SHARE' : ''}`,
    [userId],
  );
  const user = found.rows[0];
  assert(user, 'a card has its holder');
  return user;
}

export async function recordIssued(
  tx: Queryable,
  issued: {
    cardId: string;
    token: string;
    lastFour: string;
    expiryMonth: number;
    expiryYear: number;
    feeEntryId: EntryId | null;
    decidedByUserId: string;
  },
): Promise<void> {
  await tx.query(
    `UPDATE cards SET status = 'issued', issuer_token = $2, last_four = $3, expiry_month = $4,
            expiry_year = $5, fee_entry_id = $6, decided_by_user_id = $7, decided_at = now()
      WHERE id = $1`,
    [
      issued.cardId,
      issued.token,
      issued.lastFour,
      issued.expiryMonth,
      issued.expiryYear,
      issued.feeEntryId,
      issued.decidedByUserId,
    ],
  );
}

export async function recordDeclined(
  tx: Queryable,
  declined: { cardId: string; reason: string; decidedByUserId: string },
): Promise<void> {
  await tx.query(
    `UPDATE cards SET status = 'declined', reason = $2, decided_by_user_id = $3, decided_at = now()
      WHERE id = $1`,
    [declined.cardId, declined.reason, declined.decidedByUserId],
  );
}

/**
 * Freezes or unfreezes a card. The row lock it takes is the one every authorization takes
 * first, so an authorization that locks after this commits sees the new status.
 */
/** The customer cancelled the card (requested, issued or frozen): it is closed for good. */
export async function recordCancelled(tx: Queryable, cardId: string): Promise<void> {
  await tx.query(`UPDATE cards SET status = 'closed', frozen_at = NULL WHERE id = $1`, [cardId]);
}

export async function setCardFrozen(
  tx: Queryable,
  change: { cardId: string; isFrozen: boolean; reason: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE cards SET status = $2::card_status, reason = $3,
            frozen_at = CASE WHEN $2::card_status = 'frozen' THEN clock_timestamp() END
      WHERE id = $1`,
    [change.cardId, (change.isFrozen ? 'frozen' : 'issued') satisfies CardStatus, change.reason],
  );
}

/** card_authorize's answer; a retry's first answer, or for an unknown card no ids at all. */
export type AuthorizeRow = {
  authorization_id: string | null;
  user_id: string | null;
  status: AuthorizationStatus;
  decline_reason: string | null;
  is_replay: boolean;
};

/** card_authorize (migration 0015): the checks, the hold and the answer, in one statement. */
export async function authorize(
  tx: Queryable,
  request: {
    authorizationId: string;
    holdId: HoldId;
    processorId: string;
    cardToken: string;
    amountMinor: bigint;
    currency: string;
    merchant: string;
  },
): Promise<AuthorizeRow> {
  const found = await tx.query<AuthorizeRow>(
    `SELECT * FROM card_authorize(p_authorization_id => $1, p_hold_id => $2, p_processor_id => $3,
                                  p_card_token => $4, p_amount_minor => $5, p_currency => $6,
                                  p_merchant => $7)`,
    [
      request.authorizationId,
      request.holdId,
      request.processorId,
      request.cardToken,
      request.amountMinor,
      request.currency,
      request.merchant,
    ],
    { preparedName: 'card_authorize' },
  );
  const row = found.rows[0];
  assert(row, 'card_authorize returns one row');
  return row;
}

export async function findAuthorizationByProcessorId(
  db: Queryable,
  processorId: string,
  options: { isLocked?: boolean } = {},
): Promise<AuthorizationRow | null> {
  const found = await db.query<AuthorizationRow>(
    `SELECT * FROM card_authorizations WHERE processor_id = $1${options.isLocked ? ' FOR UPDATE' : ''}`,
    [processorId],
  );
  return found.rows[0] ?? null;
}

/** What the processor sent with an authorization it named `processorId`, to compare a retry. */
export type AuthorizationRequestRow = {
  card_token: string;
  amount_minor: bigint;
  currency: string;
  merchant: string;
};

export async function authorizationRequestOf(
  db: Queryable,
  processorId: string,
): Promise<AuthorizationRequestRow | null> {
  const found = await db.query<AuthorizationRequestRow>(
    `SELECT c.issuer_token AS card_token, a.amount_minor, a.currency, a.merchant
       FROM card_authorizations a JOIN cards c ON c.id = a.card_id
      WHERE a.processor_id = $1`,
    [processorId],
  );
  return found.rows[0] ?? null;
}

export async function findAuthorizationBySettlementId(
  db: Queryable,
  settlementId: string,
): Promise<AuthorizationRow | null> {
  const found = await db.query<AuthorizationRow>(
    'SELECT * FROM card_authorizations WHERE settlement_id = $1',
    [settlementId],
  );
  return found.rows[0] ?? null;
}

export async function findAuthorization(
  db: Queryable,
  authorizationId: string,
): Promise<AuthorizationRow | null> {
  const found = await db.query<AuthorizationRow>(
    'SELECT * FROM card_authorizations WHERE id = $1',
    [authorizationId],
  );
  return found.rows[0] ?? null;
}

export async function recordSettlement(
  tx: Queryable,
  settlement: {
    authorizationId: string;
    settlementId: string;
    status: Exclude<AuthorizationStatus, 'approved' | 'declined'>;
    entryId: EntryId | null;
  },
): Promise<void> {
  await tx.query(
    `UPDATE card_authorizations SET status = $2, settlement_id = $3, entry_id = $4,
            settled_at = now()
      WHERE id = $1`,
    [settlement.authorizationId, settlement.status, settlement.settlementId, settlement.entryId],
  );
}

/** A released authorization no longer counts against the week it was made in. */
export async function uncountWeeklySpend(tx: Queryable, authorizationId: string): Promise<void> {
  await tx.query(
    `UPDATE cards c SET spent_minor = greatest(c.spent_minor - a.amount_minor, 0)
       FROM card_authorizations a
      WHERE a.id = $1 AND c.id = a.card_id AND c.spent_week_start = a.week_start`,
    [authorizationId],
  );
}

/** The card's purchase attempts, newest first. */
export async function authorizationsOfCard(
  db: Queryable,
  cardId: string,
  rowsMax: number,
): Promise<AuthorizationRow[]> {
  const found = await db.query<AuthorizationRow>(
    `SELECT * FROM card_authorizations WHERE card_id = $1
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [cardId, rowsMax],
  );
  return found.rows;
}

/** The customer's card whose settled purchase is the journal entry `entryId`, if any. */
export async function cardOfPurchase(
  db: Queryable,
  entryId: string,
  userId: string,
): Promise<string | null> {
  const found = await db.query<{ card_id: string }>(
    'SELECT card_id FROM card_authorizations WHERE entry_id = $1 AND user_id = $2 LIMIT 1',
    [entryId, userId],
  );
  return found.rows[0]?.card_id ?? null;
}
