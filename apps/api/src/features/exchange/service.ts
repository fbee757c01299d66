import type { CurrencyCode } from '@coffer/contracts/currencies';
import {
  type Conversion,
  convert,
  convertForReceive,
  type ExchangeResult,
  type Quote,
  type QuoteBody,
  quoteValiditySeconds,
  type Rates,
  rateToDecimalString,
} from '@coffer/contracts/exchange';
import { canonicalPair, type StaffRates } from '@coffer/contracts/fx-markups';
import { frozenAccountMessage } from '@coffer/contracts/limits';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { markupOf, midRateOf } from '../../fx/rates.ts';
import { exchangeLines } from '../../ledger/exchange.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { type CustomerWalletRow, findWalletInCurrency } from '../../ledger/wallets.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { effectiveMarkupOf, pairMarkups } from './markups.ts';
import {
  frozenReasonOf,
  insertQuote,
  lockQuote,
  markQuoteAccepted,
  type QuoteRow,
} from './queries.ts';

export type ExchangeDeps = { db: Database; ledger: Ledger; config: Config };

function refuseIfFrozen(standing: { isFrozen: boolean; reason: string | null }): void {
  if (standing.isFrozen) {
    throw new AppError('account_frozen', {
      message: frozenAccountMessage(standing.reason ?? 'no reason was given'),
    });
  }
}

/** The customer's wallet in an offered currency: refused clearly when there is none. */
async function walletFor(
  deps: ExchangeDeps,
  userId: string,
  currency: CurrencyCode,
): Promise<CustomerWalletRow> {
  const wallet = await findWalletInCurrency(deps.db, userId, currency);
  // The main wallet's currency is always exchangeable; others only while offered.
  if (!wallet?.isMain && !deps.config.fx.currencies.includes(currency)) {
    throw new AppError('currency_not_offered', {
      message: `${currency} is not offered here.`,
      fields: { currency: `${currency} is not offered here.` },
    });
  }
  if (!wallet) {
    throw new AppError('not_found', {
      message: `You have no ${currency} wallet. Open one on the Wallets page first.`,
    });
  }
  return wallet;
}

function quoteOf(row: QuoteRow): Quote {
  return {
    quoteId: row.id,
    sellCurrency: row.sell_currency,
    receiveCurrency: row.receive_currency,
    sellMinor: minorUnits(row.sell_minor),
    receiveMinor: minorUnits(row.receive_minor),
    midRate: row.mid_rate,
    appliedRate: row.applied_rate,
    markupBp: row.markup_bp,
    markupMinor: minorUnits(row.markup_minor),
    feeMinor: minorUnits(0n),
    rateAt: row.rate_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

/**
 * A quote valid 30 seconds, stored: the amount sold and received at the mid rate less the
 * markup, rounded as ADR 051 says. Every refusal comes before anything is written.
 */
export async function createQuote(
  deps: ExchangeDeps,
  userId: string,
  body: QuoteBody,
): Promise<Quote> {
  const { sellCurrency: sell, receiveCurrency: receive } = body;
  if (sell === receive) throw new AppError('same_currency');
  const sellWallet = await walletFor(deps, userId, sell);
  const receiveWallet = await walletFor(deps, userId, receive);
  refuseIfFrozen(await frozenReasonOf(deps.db, userId));
  const amountMinor = positiveAmountOrRefuse(
    body.amount,
    body.side === 'sell' ? sell : receive,
    'quickPay',
  );
  const mid = midRateOf(deps.config.fx, sell, receive, new Date());
  if ('problem' in mid) throw new AppError('exchange_unavailable');
  // The markup is read in the quote's transaction and stored with it: a quote made after a
  // staff change uses the new markup; one made before keeps its own until it expires.
  return deps.db.transaction(async (tx) => {
    const markupBp = await effectiveMarkupOf(tx, deps.config.fx, sell, receive);
    const terms = { sell, receive, mid: mid.rate, markupBp };
    const conversion: Conversion =
      body.side === 'sell'
        ? convert({ ...terms, sellMinor: amountMinor })
        : convertForReceive({ ...terms, receiveMinor: amountMinor });
    if (conversion.receiveMinor <= 0n) {
      throw new AppError('amount_too_small', {
        fields: { amount: 'This amount converts to less than the smallest unit.' },
      });
    }
    const row = {
      id: newId(),
      user_id: userId,
      sell_account_id: sellWallet.id,
      receive_account_id: receiveWallet.id,
      sell_currency: sell,
      receive_currency: receive,
      sell_minor: conversion.sellMinor,
      receive_minor: conversion.receiveMinor,
      markup_minor: conversion.markupMinor,
      rounding_minor: conversion.roundingMinor,
      position_minor: conversion.positionMinor,
      mid_rate: rateToDecimalString(mid.rate),
      applied_rate: rateToDecimalString({
        numerator: mid.rate.numerator * BigInt(10_000 - markupBp),
        denominator: mid.rate.denominator * 10_000n,
      }),
      markup_bp: markupBp,
      rate_at: mid.at,
    };
    const { expires_at } = await insertQuote(tx, row, quoteValiditySeconds);
    return quoteOf({ ...row, expires_at, accepted_at: null, entry_id: null, is_expired: false });
  });
}

function exchangeMemo(quote: QuoteRow): string {
  const sold = formatMoney(
    { amountMinor: quote.sell_minor, currency: quote.sell_currency as CurrencyCode },
    { currencyDisplay: 'code' },
  );
  const received = formatMoney(
    { amountMinor: quote.receive_minor, currency: quote.receive_currency as CurrencyCode },
    { currencyDisplay: 'code' },
  );
  return `Exchange ${sold} to ${received} at ${quote.applied_rate} ${quote.receive_currency} per ${quote.sell_currency}`;
}

/**
 * Executes exactly the quote, once, within its time: locks it, checks it is unused, not
 * expired and the customer not frozen, posts the entry and marks the quote, in one
 * transaction. The wallet's floor is the ledger's: a refusal posts nothing.
 */
export async function acceptQuote(
  deps: ExchangeDeps,
  userId: string,
  quoteId: string,
): Promise<ExchangeResult> {
  // System accounts are found outside the transaction (ledger.systemAccount says why).
  const peek = await deps.db.query<{ sell_currency: CurrencyCode; receive_currency: CurrencyCode }>(
    'SELECT sell_currency, receive_currency FROM exchange_quotes WHERE id = $1 AND user_id = $2',
    [quoteId, userId],
  );
  const currencies = peek.rows[0];
  if (!currencies) throw new AppError('not_found', { message: 'There is no such quote.' });
  const books = {
    sellPositionId: await deps.ledger.systemAccount('fx_position', currencies.sell_currency),
    receivePositionId: await deps.ledger.systemAccount('fx_position', currencies.receive_currency),
    receiveIncomeId: await deps.ledger.systemAccount('fx_income', currencies.receive_currency),
    receiveRoundingId: await deps.ledger.systemAccount('fx_rounding', currencies.receive_currency),
  };
  return deps.db.transaction(async (tx) => {
    const quote = await lockQuote(tx, quoteId, userId);
    if (!quote) throw new AppError('not_found', { message: 'There is no such quote.' });
    if (quote.accepted_at !== null) throw new AppError('quote_used');
    if (quote.is_expired) throw new AppError('quote_expired');
    refuseIfFrozen(await frozenReasonOf(tx, userId));
    const lines = exchangeLines(
      { ...books, sellWalletId: quote.sell_account_id, receiveWalletId: quote.receive_account_id },
      {
        sellMinor: quote.sell_minor,
        receiveMinor: quote.receive_minor,
        markupMinor: quote.markup_minor,
        roundingMinor: quote.rounding_minor,
        positionMinor: quote.position_minor,
      },
    );
    const { entryId } = await deps.ledger.post(
      {
        kind: 'exchange',
        memo: exchangeMemo(quote),
        lines,
        idempotencyKey: `exchange:${quote.id}`,
        actorUserId: userId,
      },
      tx,
    );
    await markQuoteAccepted(tx, quote.id, entryId);
    await publishEvent(tx, { userId, topics: ['wallet'] });
    return {
      quoteId: quote.id,
      entryId,
      sellCurrency: quote.sell_currency,
      receiveCurrency: quote.receive_currency,
      sellMinor: minorUnits(quote.sell_minor),
      receiveMinor: minorUnits(quote.receive_minor),
      appliedRate: quote.applied_rate,
    };
  });
}

/**
 * The mid rate of every pair of offered currencies, the markups in effect (staff's over the
 * configured ones) and the source's health.
 */
export async function ratesOverview(deps: ExchangeDeps): Promise<Rates> {
  const { fx } = deps.config;
  const now = new Date();
  const reference = fx.source.read(now);
  const markups = new Map(
    (await pairMarkups(deps.db, fx)).map((markup) => [markup.pair, markup.markupBp]),
  );
  const pairs: Rates['pairs'] = [];
  let problem = reference.problem;
  for (const sell of fx.currencies) {
    for (const receive of fx.currencies) {
      if (sell === receive) continue;
      const mid = midRateOf(fx, sell, receive, now);
      if ('problem' in mid) problem ??= mid.problem;
      pairs.push({
        sellCurrency: sell,
        receiveCurrency: receive,
        midRate: 'problem' in mid ? null : rateToDecimalString(mid.rate),
        markupBp: markups.get(canonicalPair(sell, receive)) ?? markupOf(fx.markups, sell, receive),
        rateAt: 'problem' in mid ? null : mid.at.toISOString(),
        isUsable: !('problem' in mid),
      });
    }
  }
  return {
    source: fx.source.name,
    isHealthy: problem === null,
    problem,
    maxAgeSeconds: fx.maxAgeSeconds,
    currencies: [...fx.currencies],
    pairs,
  };
}

/** The staff's rates page: the rates, each pair's markup with its source, and the maximum. */
export async function staffRatesOverview(deps: ExchangeDeps): Promise<StaffRates> {
  return {
    ...(await ratesOverview(deps)),
    markups: await pairMarkups(deps.db, deps.config.fx),
    markupBpMaxForStaff: deps.config.fx.markupBpMaxForStaff,
  };
}
