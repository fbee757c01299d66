import type { CurrencyCode } from '@coffer/contracts/currencies';
import {
  canonicalPair,
  type MarkupChangeBody,
  type PairMarkup,
} from '@coffer/contracts/fx-markups';
import type { Queryable } from '../../db/client.ts';
import { type FxSettings, markupOf } from '../../fx/rates.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import {
  deleteStaffMarkup,
  lockMarkupChanges,
  staffMarkupOf,
  staffMarkups,
  upsertStaffMarkup,
} from './queries.ts';

/**
 * The markup a quote uses now: the one staff set for the pair (either direction), else
 * the operator's configured one. Read with the quote's transaction, so the quote stores
 * the value it was priced with (ADR 051's amendment).
 */
export async function effectiveMarkupOf(
  db: Queryable,
  fx: FxSettings,
  sell: CurrencyCode,
  receive: CurrencyCode,
): Promise<number> {
  return (
    (await staffMarkupOf(db, canonicalPair(sell, receive))) ?? markupOf(fx.markups, sell, receive)
  );
}

/** Every unordered pair of offered currencies, "EUR/JPY" with its codes in order. */
function offeredPairs(fx: FxSettings): [CurrencyCode, CurrencyCode][] {
  const codes = [...fx.currencies].sort();
  return codes.flatMap((first, index) =>
    codes.slice(index + 1).map((second): [CurrencyCode, CurrencyCode] => [first, second]),
  );
}

/** Each offered pair's markup for the staff's rates page, with where it comes from. */
export async function pairMarkups(db: Queryable, fx: FxSettings): Promise<PairMarkup[]> {
  const set = new Map((await staffMarkups(db)).map((row) => [row.pair, row]));
  return offeredPairs(fx).map(([first, second]) => {
    const pair = canonicalPair(first, second);
    const configuredMarkupBp = markupOf(fx.markups, first, second);
    const staff = set.get(pair);
    return {
      pair,
      markupBp: staff?.markup_bp ?? configuredMarkupBp,
      configuredMarkupBp,
      source: staff ? 'staff' : 'configured',
      setBy: staff?.set_by_username ?? null,
      setAt: staff?.set_at.toISOString() ?? null,
      reason: staff?.reason ?? null,
    };
  });
}

/** The pair of a path, refused unless it is two different currencies both offered. */
function offeredPairOf(fx: FxSettings, codes: { first: CurrencyCode; second: CurrencyCode }) {
  if (codes.first === codes.second) throw new AppError('same_currency');
  for (const currency of [codes.first, codes.second]) {
    if (!fx.currencies.includes(currency)) {
      throw new AppError('currency_not_offered', { message: `${currency} is not offered here.` });
    }
  }
  return canonicalPair(codes.first, codes.second);
}

async function markupNow(tx: Queryable, fx: FxSettings, pair: string): Promise<PairMarkup> {
  const found = (await pairMarkups(tx, fx)).find((markup) => markup.pair === pair);
  if (!found) throw new Error(`${pair} is an offered pair`);
  return found;
}

/** What the audit event records of a pair's markup before and after. */
function snapshot(markup: PairMarkup) {
  return { pair: markup.pair, markupBp: markup.markupBp, source: markup.source };
}

/** The pair's markup after a change, recorded with the one before it and the reason. */
async function auditedChange(
  tx: Queryable,
  fx: FxSettings,
  auditAction: 'fx_markup_set' | 'fx_markup_reset',
  before: PairMarkup,
  action: StaffAction,
): Promise<PairMarkup> {
  const after = await markupNow(tx, fx, before.pair);
  await recordAudit(tx, {
    action: auditAction,
    actorUserId: action.staff.userId,
    subjectUserId: null,
    before: snapshot(before),
    after: snapshot(after),
    reason: action.reason,
    ipAddress: action.ipAddress,
  });
  return after;
}

/** A staff member sets a pair's markup over the configured one; audited with the reason. */
export async function setMarkup(
  tx: Queryable,
  fx: FxSettings,
  codes: { first: CurrencyCode; second: CurrencyCode },
  body: MarkupChangeBody,
  action: StaffAction,
): Promise<PairMarkup> {
  const pair = offeredPairOf(fx, codes);
  if (body.markupBp > fx.markupBpMaxForStaff) {
    const max = fx.markupBpMaxForStaff;
    const tooHighMessage = `Set at most ${max} basis points.`;
    throw new AppError('validation_failed', {
      message: tooHighMessage,
      fields: { markupBp: tooHighMessage },
    });
  }
  await lockMarkupChanges(tx);
  const before = await markupNow(tx, fx, pair);
  await upsertStaffMarkup(tx, {
    pair,
    markupBp: body.markupBp,
    setByUserId: action.staff.userId,
    reason: action.reason,
  });
  return auditedChange(tx, fx, 'fx_markup_set', before, action);
}

/** Back to the configured markup; refused when staff never set one. Audited likewise. */
export async function resetMarkup(
  tx: Queryable,
  fx: FxSettings,
  codes: { first: CurrencyCode; second: CurrencyCode },
  action: StaffAction,
): Promise<PairMarkup> {
  const pair = offeredPairOf(fx, codes);
  await lockMarkupChanges(tx);
  const before = await markupNow(tx, fx, pair);
  if (before.source === 'configured') {
    throw new AppError('state_conflict', {
      message: 'This pair already uses the configured markup.',
    });
  }
  await deleteStaffMarkup(tx, pair);
  return auditedChange(tx, fx, 'fx_markup_reset', before, action);
}
