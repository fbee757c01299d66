import {
  type Card,
  type CardAuthorization,
  type CardOverview,
  type CardSpending,
  cardLevelMin,
  type StaffCard,
} from '@coffer/contracts/cards';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { frozenAccountMessage } from '@coffer/contracts/limits';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { Config } from '../../config.ts';
import { requireCustomer } from '../../customers/customers.ts';
import { findUserById } from '../../customers/queries.ts';
import type { Queryable } from '../../db/client.ts';
import type { AccountId, HoldId, PostingLine } from '../../ledger/ledger.ts';
import { findOwnWallet } from '../../ledger/wallets.ts';
import { limitsOrRefuse } from '../../money-out/money-out.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import {
  authorizationsOfCard,
  type CardRow,
  cardOfPurchase,
  cardsOfUser,
  findCard,
  findCardholderFreeze,
  hasOpenCard,
  insertRequestedCard,
  latestCardOf,
  recordCancelled,
  recordDeclined,
  recordIssued,
  requestedCards,
  setCardFrozen,
} from './queries.ts';
import { type CardDeps, listLengthMax, toAuthorization, toCard, toStaffCard } from './shared.ts';

const feeHoldReason = 'Virtual card creation fee';
const weekMs = 7 * 24 * 60 * 60 * 1000;

/** PRODUCT.md section 5: the operator's fee schedule; a currency not in it pays nothing. */
function creationFeeMinor(config: Config, currency: CurrencyCode): bigint {
  return config.cardFeeMinorByCurrency.get(currency) ?? 0n;
}

/** Monday 00:00 UTC of the week `now` is in. */
function weekStartOf(now: Date): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const daysSinceMonday = (now.getUTCDay() + 6) % 7;
  return new Date(midnight - daysSinceMonday * 24 * 60 * 60 * 1000);
}

/** The week's spending: what the card's counter says, if it counts this week. */
function spendingOf(row: CardRow, now: Date): CardSpending {
  return {
    spentThisWeekMinor: minorUnits(row.is_spent_this_week ? row.spent_minor : 0n),
    weeklyLimitMinor: minorUnits(row.weekly_limit_minor),
    resetsAt: new Date(weekStartOf(now).getTime() + weekMs).toISOString(),
  };
}

/** The wallet the customer chose, if it is theirs (another's is not found), or their main one. */
async function walletOf(deps: CardDeps, userId: string, chosenWalletId: string | undefined) {
  const wallet = await findOwnWallet(deps.db, userId, chosenWalletId);
  if (!wallet) throw new AppError('not_found', { message: 'You have no such wallet.' });
  return wallet;
}

/**
 * The terms a request from the wallet (`chosenWalletId`, or the main one) gets (fee,
 * weekly limit, in its currency), the current card and its week.
 */
export async function cardOverview(
  deps: CardDeps,
  userId: string,
  chosenWalletId?: string,
): Promise<CardOverview> {
  const wallet = await walletOf(deps, userId, chosenWalletId);
  const limits = deps.config.limits.limitsFor(wallet.currency);
  const [balance, card, user] = await Promise.all([
    deps.ledger.balance(wallet.id),
    latestCardOf(deps.db, userId),
    findUserById(deps.db, userId),
  ]);
  return {
    level: user?.level ?? 1,
    terms: {
      currency: wallet.currency,
      creationFeeMinor: minorUnits(creationFeeMinor(deps.config, wallet.currency)),
      weeklyLimitMinor: minorUnits(limits?.cardWeeklyLimitMinor ?? 0n),
      availableMinor: minorUnits(balance.availableMinor),
    },
    card: card ? toCard(card) : null,
    spending:
      card && (card.status === 'issued' || card.status === 'frozen')
        ? spendingOf(card, new Date())
        : null,
  };
}

export type CardRequestTerms = {
  userId: string;
  walletId: AccountId;
  currency: CurrencyCode;
  feeMinor: bigint;
  weeklyLimitMinor: bigint;
};

/**
 * What a request from the chosen wallet (the card's funding for its whole life) would
 * cost, refused before the transaction when the fee the customer
 * confirmed is no longer the fee, or the currency has no limits (so no weekly limit).
 */
export async function cardRequestTerms(
  deps: CardDeps,
  userId: string,
  confirmedFeeMinorText: string,
  chosenWalletId?: string,
): Promise<CardRequestTerms> {
  const wallet = await walletOf(deps, userId, chosenWalletId);
  const limits = limitsOrRefuse(deps.config.limits, wallet.currency);
  const feeMinor = creationFeeMinor(deps.config, wallet.currency);
  if (feeMinor !== BigInt(confirmedFeeMinorText)) throw new AppError('card_fee_changed');
  return {
    userId,
    walletId: wallet.id,
    currency: wallet.currency,
    feeMinor,
    weeklyLimitMinor: limits.cardWeeklyLimitMinor,
  };
}

/** PRODUCT.md's words for a frozen account, with the staff's reason. */
function refuseFrozenAccount(user: { frozen_at: Date | null; frozen_reason: string | null }) {
  if (!user.frozen_at) return;
  throw new AppError('account_frozen', {
    message: frozenAccountMessage(user.frozen_reason ?? 'no reason given'),
  });
}

/**
 * Refuses a frozen account or a level below 2, with the words the customer reads; answers
 * the holder name: the verified legal name, or the username of a customer whose level
 * staff raised without a verification (no name is made up).
 */
async function refuseUnlessEligible(tx: Queryable, userId: string): Promise<string> {
  const user = await findUserById(tx, userId);
  if (user?.role !== 'customer') throw new AppError('not_found');
  refuseFrozenAccount(user);
  if (user.level < cardLevelMin) throw new AppError('level_too_low');
  return user.legal_name ?? user.username;
}

/**
 * A customer asks for a card, in the transaction of the idempotent request: frozen and
 * level checks, the fee held on the wallet (the ledger refuses a short balance), and the
 * requested card, which the one-open-card index refuses beside another open one.
 */
export async function requestCard(
  deps: CardDeps,
  tx: Queryable,
  terms: CardRequestTerms,
): Promise<Card> {
  const holderName = await refuseUnlessEligible(tx, terms.userId);
  if (await hasOpenCard(tx, terms.userId)) throw new AppError('card_already_open');
  const feeHoldId = terms.feeMinor > 0n ? await holdFee(deps, tx, terms) : null;
  const cardId = newId();
  const isInserted = await insertRequestedCard(tx, {
    id: cardId,
    userId: terms.userId,
    accountId: terms.walletId,
    holderName: holderName.toUpperCase(),
    currency: terms.currency,
    feeMinor: terms.feeMinor,
    feeHoldId,
    weeklyLimitMinor: terms.weeklyLimitMinor,
  });
  // A request at the same moment won the index: this one's hold rolls back with the refusal.
  if (!isInserted) throw new AppError('card_already_open');
  await publishEvent(tx, { userId: terms.userId, topics: ['cards', 'wallet'] });
  const saved = await findCard(tx, cardId);
  assert(saved, 'a card just inserted is found');
  return toCard(saved);
}

async function holdFee(deps: CardDeps, tx: Queryable, terms: CardRequestTerms): Promise<HoldId> {
  try {
    return await deps.ledger.hold(
      { accountId: terms.walletId, amountMinor: terms.feeMinor, reason: feeHoldReason },
      tx,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === 'insufficient_funds') {
      throw new AppError('insufficient_funds', {
        message: `Your available balance does not cover the card fee of ${formatMoney({ amountMinor: terms.feeMinor, currency: terms.currency })}.`,
      });
    }
    throw error;
  }
}

/** The customer's own card, or 404 for anyone else's. */
async function ownCard(db: Queryable, userId: string, cardId: string, isLocked = false) {
  const card = await findCard(db, cardId, { isLocked });
  if (!card || card.user_id !== userId) throw new AppError('not_found');
  return card;
}

export async function cardActivity(
  deps: CardDeps,
  userId: string,
  cardId: string,
): Promise<CardAuthorization[]> {
  await ownCard(deps.db, userId, cardId);
  return (await authorizationsOfCard(deps.db, cardId, listLengthMax)).map(toAuthorization);
}

const cancellableStatuses: readonly CardRow['status'][] = ['requested', 'issued', 'frozen'];

/**
 * The customer cancels their own card (issue #34 item 4: an active card keeps an account
 * open): a request's fee hold is released; an issued or frozen card is closed, a staff
 * freeze included (closing only takes spending away). Coffer decides under the card's row
 * lock, which every authorization takes first (ADR 023), so none passes once this commits;
 * then the issuer is told. Holds of authorizations already made settle or expire as before.
 */
export async function cancelCard(
  deps: CardDeps,
  userId: string,
  cardId: string,
  log: { error(object: object, message: string): void },
): Promise<Card> {
  const token = await deps.db.transaction(async (tx) => {
    const card = await ownCard(tx, userId, cardId, true);
    if (!cancellableStatuses.includes(card.status)) throw new AppError('state_conflict');
    if (card.status === 'requested' && card.fee_hold_id) {
      await deps.ledger.release(card.fee_hold_id, tx);
    }
    await recordCancelled(tx, cardId);
    await recordAudit(tx, {
      action: 'card_cancelled',
      actorUserId: userId,
      subjectUserId: userId,
      before: { cardId, status: card.status },
      after: { cardId, status: 'closed' },
    });
    await publishEvent(tx, { userId, topics: ['cards', 'wallet'] });
    return card.issuer_token;
  });
  if (token) {
    // Coffer's state already declines every authorization; the issuer only follows it.
    await deps.issuer.closeCard(token).catch((error: unknown) => {
      log.error({ err: error, cardId }, 'the issuer did not close a cancelled card');
    });
  }
  const card = await findCard(deps.db, cardId);
  assert(card, 'the card exists');
  return toCard(card);
}

type FreezeChange = {
  cardId: string;
  isFrozen: boolean;
  /** Staff give a reason, which the customer sees; a customer's own freeze has none. */
  staffAction: StaffAction | null;
  /** Whose card it must be: a customer's own; staff may act on any customer's. */
  ownerUserId: string | null;
};

/**
 * Freezes or unfreezes a card: Coffer decides under the card row's lock (the lock every
 * authorization takes first, so once it commits no authorization passes), then the issuer
 * is brought to what Coffer decided (ADR 023). Coffer's state decides every authorization;
 * the issuer follows it, whatever order concurrent changes reach it in.
 */
export async function changeCardFreeze(deps: CardDeps, change: FreezeChange): Promise<Card> {
  await deps.db.transaction((tx) => decideCardFreeze(deps, tx, change));
  return toCard(await syncIssuerFreeze(deps, change.cardId));
}

/** Coffer's half of a freeze change, in the caller's transaction; the issuer's follows. */
async function decideCardFreeze(deps: CardDeps, tx: Queryable, change: FreezeChange) {
  const locked = await findCard(tx, change.cardId, { isLocked: true });
  if (!locked || (change.ownerUserId !== null && locked.user_id !== change.ownerUserId)) {
    throw new AppError('not_found');
  }
  if (!isChangeable(locked, change) || !locked.issuer_token) throw new AppError('state_conflict');
  refuseCustomerLiftingStaffFreeze(locked, change);
  const reason = change.staffAction?.reason ?? null;
  await setCardFrozen(tx, { cardId: locked.id, isFrozen: change.isFrozen, reason });
  if (change.staffAction) await recordStaffFreeze(deps, tx, locked, change);
  await publishEvent(tx, { userId: locked.user_id, topics: ['cards'] });
}

/**
 * The customer's own freeze of the card that made a purchase, asked for in a dispute about
 * it, in the dispute's transaction: the card's id, or null when its card is no longer
 * issued (already frozen, or closed), which leaves nothing to do. The caller pushes the
 * freeze to the issuer with `syncIssuerFreeze` after the commit, as a freeze does.
 */
export async function freezeCardOfPurchase(
  deps: CardDeps,
  tx: Queryable,
  purchase: { userId: string; entryId: string },
): Promise<string | null> {
  const cardId = await cardOfPurchase(tx, purchase.entryId, purchase.userId);
  if (!cardId)
    throw new AppError('not_found', { message: 'That purchase was not made by a card of yours.' });
  const card = await findCard(tx, cardId, { isLocked: true });
  if (card?.status !== 'issued') return null;
  await decideCardFreeze(deps, tx, {
    cardId,
    isFrozen: true,
    staffAction: null,
    ownerUserId: purchase.userId,
  });
  return cardId;
}

/** Enough for any real sequence of changes; each change's own sync runs after it anyway. */
const issuerPushesMax = 5;

/**
 * Pushes Coffer's committed freeze state to the issuer, again while it changed meanwhile:
 * a change committed after this read pushes its own state after its commit, and the last
 * push to stop is one Coffer's state still matched, so the issuer ends where Coffer is.
 * Answers the card as last read.
 */
export async function syncIssuerFreeze(deps: CardDeps, cardId: string): Promise<CardRow> {
  let pushedStatus: CardRow['status'] | null = null;
  for (let pushes = 0; ; pushes += 1) {
    const card = await findCard(deps.db, cardId);
    assert(card, 'the card exists');
    const token = card.issuer_token;
    const isPushable = token !== null && (card.status === 'frozen' || card.status === 'issued');
    if (!isPushable || card.status === pushedStatus || pushes === issuerPushesMax) return card;
    if (card.status === 'frozen') await deps.issuer.freezeCard(token);
    else await deps.issuer.unfreezeCard(token);
    pushedStatus = card.status;
  }
}

/**
 * Freezing needs an issued card, unfreezing a frozen one; staff may also put their freeze
 * (with its reason) on a card its customer froze, or the customer could lift it any time.
 */
function isChangeable(card: CardRow, change: FreezeChange): boolean {
  if (!change.isFrozen) return card.status === 'frozen';
  const isCustomerFreeze = card.status === 'frozen' && card.reason === null;
  return card.status === 'issued' || (change.staffAction !== null && isCustomerFreeze);
}

/**
 * A staff freeze (the only kind with a reason) is lifted by staff only: otherwise a
 * customer whose card staff froze for fraud would unfreeze it and spend on.
 */
function refuseCustomerLiftingStaffFreeze(card: CardRow, change: FreezeChange): void {
  if (change.isFrozen || change.staffAction || card.reason === null) return;
  throw new AppError('state_conflict', {
    message: `Staff froze your card: ${card.reason}. Contact support to have it unfrozen.`,
  });
}

async function recordStaffFreeze(
  deps: CardDeps,
  tx: Queryable,
  card: CardRow,
  change: FreezeChange,
): Promise<void> {
  const action = change.staffAction;
  assert(action, 'a staff freeze has its action');
  await recordAudit(tx, {
    action: change.isFrozen ? 'card_frozen' : 'card_unfrozen',
    actorUserId: action.staff.userId,
    subjectUserId: card.user_id,
    before: { cardId: card.id, status: card.status },
    after: { cardId: card.id, status: change.isFrozen ? 'frozen' : 'issued' },
    reason: action.reason,
    ipAddress: action.ipAddress,
  });
  await notify(
    tx,
    {
      userId: card.user_id,
      kind: change.isFrozen ? 'card_frozen' : 'card_unfrozen',
      text: change.isFrozen
        ? `Staff froze your virtual card ending ${card.last_four}: ${action.reason}.`
        : `Staff unfroze your virtual card ending ${card.last_four}: ${action.reason}.`,
      link: '/cards',
    },
    deps.config,
  );
}

export async function cardQueue(deps: CardDeps): Promise<StaffCard[]> {
  return (await requestedCards(deps.db, listLengthMax)).map(toStaffCard);
}

export async function staffCardsOf(deps: CardDeps, userId: string): Promise<StaffCard[]> {
  await requireCustomer(deps, userId);
  return (await cardsOfUser(deps.db, userId, listLengthMax)).map(toStaffCard);
}

export async function staffCardActivity(
  deps: CardDeps,
  cardId: string,
): Promise<CardAuthorization[]> {
  const card = await findCard(deps.db, cardId);
  if (!card) throw new AppError('not_found');
  return (await authorizationsOfCard(deps.db, cardId, listLengthMax)).map(toAuthorization);
}

async function lockRequestedCard(tx: Queryable, cardId: string): Promise<CardRow> {
  const card = await findCard(tx, cardId, { isLocked: true });
  if (!card) throw new AppError('not_found');
  if (card.status !== 'requested') throw new AppError('already_decided');
  return card;
}

async function staffCard(deps: CardDeps, cardId: string): Promise<StaffCard> {
  const card = await findCard(deps.db, cardId);
  assert(card, 'a decided card exists');
  return toStaffCard(card);
}

/**
 * An admin issues a requested card: the issuer makes it (idempotent on the card's id, and
 * outside the transaction, as a remote issuer would be), then, under the card's lock and a
 * share lock on its holder (an account freeze waits for it or is seen), the account is
 * checked again, the fee's hold is captured into fees (kind `fee`) and the card records
 * the issuer's token, last four and expiry. Had the account been frozen or the request
 * decided meanwhile, the issuer's card is closed again.
 */
export async function issueCard(
  deps: CardDeps,
  cardId: string,
  action: StaffAction,
): Promise<StaffCard> {
  const unlocked = await findCard(deps.db, cardId);
  if (!unlocked) throw new AppError('not_found');
  if (unlocked.status !== 'requested') throw new AppError('already_decided');
  refuseFrozenAccount(await findCardholderFreeze(deps.db, unlocked.user_id));
  const feesId = await deps.ledger.systemAccount('fees', toCurrencyCode(unlocked.currency));
  const issued = await deps.issuer.createCard({
    reference: unlocked.id,
    holderName: unlocked.holder_name,
  });
  try {
    await deps.db.transaction(async (tx) => {
      const card = await lockRequestedCard(tx, cardId);
      refuseFrozenAccount(await findCardholderFreeze(tx, card.user_id, { isLocked: true }));
      const feeEntryId = card.fee_hold_id
        ? (
            await deps.ledger.capture(
              card.fee_hold_id,
              {
                kind: 'fee',
                memo: `${feeHoldReason} (card ending ${issued.lastFour})`,
                actorUserId: action.staff.userId,
                lines: feeLines(card, feesId),
              },
              tx,
            )
          ).entryId
        : null;
      await recordIssued(tx, {
        cardId,
        ...issued,
        feeEntryId,
        decidedByUserId: action.staff.userId,
      });
      await recordAudit(tx, {
        action: 'card_issued',
        actorUserId: action.staff.userId,
        subjectUserId: card.user_id,
        before: { cardId, status: 'requested' },
        after: {
          cardId,
          status: 'issued',
          lastFour: issued.lastFour,
          feeMinor: card.fee_minor.toString(),
        },
        reason: action.reason || null,
        ipAddress: action.ipAddress,
      });
      await notify(
        tx,
        {
          userId: card.user_id,
          kind: 'card_issued',
          text: `Your virtual card ending ${issued.lastFour} is ready to use.`,
          link: '/cards',
        },
        deps.config,
      );
      await publishEvent(tx, { userId: card.user_id, topics: ['cards', 'wallet'] });
    });
  } catch (error) {
    await deps.issuer.closeCard(issued.token);
    throw error;
  }
  return staffCard(deps, cardId);
}

function feeLines(card: CardRow, feesId: AccountId): PostingLine[] {
  return [
    { accountId: card.account_id, amountMinor: -card.fee_minor },
    { accountId: feesId, amountMinor: card.fee_minor },
  ];
}

/** An admin declines a request: the fee's hold is released and the customer sees why. */
export async function declineCard(
  deps: CardDeps,
  cardId: string,
  action: StaffAction,
): Promise<StaffCard> {
  await deps.db.transaction(async (tx) => {
    const card = await lockRequestedCard(tx, cardId);
    if (card.fee_hold_id) await deps.ledger.release(card.fee_hold_id, tx);
    await recordDeclined(tx, {
      cardId,
      reason: action.reason,
      decidedByUserId: action.staff.userId,
    });
    await recordAudit(tx, {
      action: 'card_declined',
      actorUserId: action.staff.userId,
      subjectUserId: card.user_id,
      before: { cardId, status: 'requested' },
      after: { cardId, status: 'declined' },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    const fee =
      card.fee_minor > 0n
        ? ` The fee of ${formatMoney({ amountMinor: card.fee_minor, currency: toCurrencyCode(card.currency) })} is back in your available balance.`
        : '';
    await notify(
      tx,
      {
        userId: card.user_id,
        kind: 'card_declined',
        text: `Your virtual card request was declined: ${action.reason}.${fee}`,
        link: '/cards',
      },
      deps.config,
    );
    await publishEvent(tx, { userId: card.user_id, topics: ['cards', 'wallet'] });
  });
  return staffCard(deps, cardId);
}
