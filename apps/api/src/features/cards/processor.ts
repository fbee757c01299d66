import type { IssuingAuthorizationAnswer, IssuingSettlementBody } from '@coffer/contracts/cards';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import type { Queryable } from '../../db/client.ts';
import { fromSqlError } from '../../db/sql-errors.ts';
import type { AccountId, HoldId } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import {
  type AuthorizationRow,
  authorizationRequestOf,
  authorize,
  findAuthorization,
  findAuthorizationByProcessorId,
  findAuthorizationBySettlementId,
  recordSettlement,
  uncountWeeklySpend,
} from './queries.ts';
import { type CardDeps, isDeclineReason } from './shared.ts';

/** What the processor sends to authorize a purchase. */
type AuthorizationRequest = {
  id: string;
  cardToken: string;
  amountMinor: bigint;
  currency: string;
  merchant: string;
};

/**
 * The processor asks to authorize a purchase: card_authorize decides it and places the
 * hold in one statement (its own transaction); a retry of the same id with the same
 * request gets the first answer, and the same id with another request is refused
 * (`processor_id_reused`), as an Idempotency-Key reused for another body is. The
 * customer's page hears of it after the commit.
 */
export async function authorizePurchase(
  deps: CardDeps,
  request: AuthorizationRequest,
): Promise<IssuingAuthorizationAnswer> {
  // One statement is one transaction on its own: no BEGIN and COMMIT round trips around it.
  const answer = await authorize(deps.db, {
    authorizationId: newId(),
    holdId: newId() as HoldId,
    processorId: request.id,
    cardToken: request.cardToken,
    amountMinor: request.amountMinor,
    currency: request.currency,
    merchant: request.merchant,
  }).catch((error: unknown) => {
    throw fromSqlError(error);
  });
  // An unknown card is answered before card_authorize looks the id up: a known id sent
  // with a card nobody has is a changed request too.
  const isUnknownCard = answer.authorization_id === null;
  if (answer.is_replay || isUnknownCard) await refuseChangedRetry(deps.db, request);
  if (answer.user_id && !answer.is_replay) {
    deps.eventHub.publishCommitted([{ userId: answer.user_id, topics: ['cards', 'wallet'] }]);
  }
  return {
    id: request.id,
    approved: answer.status !== 'declined',
    declineReason: isDeclineReason(answer.decline_reason) ? answer.decline_reason : null,
  };
}

/**
 * Refuses a request whose id the processor already used for a different one. What a
 * recorded authorization keeps (its card, amount, currency and merchant) never changes,
 * so the comparison needs no lock.
 */
async function refuseChangedRetry(db: Queryable, request: AuthorizationRequest): Promise<void> {
  const first = await authorizationRequestOf(db, request.id);
  if (!first) return;
  const isSameRequest =
    first.card_token === request.cardToken &&
    first.amount_minor === request.amountMinor &&
    first.currency === request.currency &&
    first.merchant === request.merchant;
  if (!isSameRequest) throw new AppError('processor_id_reused');
}

const settledStatusOf = {
  capture: 'settled',
  reversal: 'reversed',
  expiry: 'expired',
} as const;

/**
 * The processor settles an approved authorization: a capture posts the held amount to
 * card clearing (kind `card_purchase`, memo the merchant); a reversal or expiry releases
 * it. Idempotent on the settlement's id; an authorization is settled once (409 after).
 */
export async function settleAuthorization(
  deps: CardDeps,
  settlement: IssuingSettlementBody,
): Promise<{ id: string; authorizationId: string; status: AuthorizationRow['status'] }> {
  const answer = (row: AuthorizationRow) => ({
    id: settlement.id,
    authorizationId: settlement.authorizationId,
    status: row.status,
  });
  const replayed = await findAuthorizationBySettlementId(deps.db, settlement.id);
  if (replayed) {
    // The settlement id names one settlement: its authorization and its type (the status
    // it left, which nothing changes afterwards).
    const isSameRequest =
      replayed.processor_id === settlement.authorizationId &&
      replayed.status === settledStatusOf[settlement.type];
    if (!isSameRequest) throw new AppError('processor_id_reused');
    return answer(replayed);
  }
  const unlocked = await findAuthorizationByProcessorId(deps.db, settlement.authorizationId);
  if (!unlocked) throw new AppError('not_found');
  const clearingId = await deps.ledger.systemAccount(
    'card_clearing',
    toCurrencyCode(unlocked.currency),
  );
  const settled = await settleInTransaction(deps, settlement, clearingId).catch((error) => {
    // The same settlement id sent at once for two authorizations: the unique index keeps
    // it on one, and the other is refused, not a 500.
    if (isUniqueViolation(error)) throw new AppError('state_conflict');
    throw error;
  });
  return answer(settled);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}

async function settleInTransaction(
  deps: CardDeps,
  settlement: IssuingSettlementBody,
  clearingId: AccountId,
): Promise<AuthorizationRow> {
  return deps.db.transaction(async (tx) => {
    const auth = await findAuthorizationByProcessorId(tx, settlement.authorizationId, {
      isLocked: true,
    });
    assert(auth, 'an authorization is never deleted');
    // A twin of this settlement committed while this one waited for the lock.
    if (auth.settlement_id === settlement.id) return auth;
    if (auth.status !== 'approved' || !auth.hold_id) throw new AppError('state_conflict');
    const status = settledStatusOf[settlement.type];
    let entryId = null;
    if (status === 'settled') {
      ({ entryId } = await deps.ledger.capture(
        auth.hold_id,
        {
          kind: 'card_purchase',
          memo: auth.merchant,
          lines: [
            { accountId: auth.account_id, amountMinor: -auth.amount_minor },
            { accountId: clearingId, amountMinor: auth.amount_minor },
          ],
        },
        tx,
      ));
    } else {
      await deps.ledger.release(auth.hold_id, tx);
      await uncountWeeklySpend(tx, auth.id);
    }
    await recordSettlement(tx, {
      authorizationId: auth.id,
      settlementId: settlement.id,
      status,
      entryId,
    });
    await publishEvent(tx, { userId: auth.user_id, topics: ['cards', 'wallet'] });
    const saved = await findAuthorization(tx, auth.id);
    assert(saved, 'the authorization exists');
    return saved;
  });
}
