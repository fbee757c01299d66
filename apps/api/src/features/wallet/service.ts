import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { CurrencyLimits } from '@coffer/contracts/limits';
import { formatMoney, MoneyParseError, minorUnits } from '@coffer/contracts/money';
import {
  type BalanceHistory,
  parseTestMoneyAmount,
  type Spending,
  spendingCategories,
  spendingMonths,
  type TestMoneyBody,
  type TestMoneyTerms,
  type WalletSummary,
  type WalletTransaction,
  type WalletTransactionPage,
} from '@coffer/contracts/wallet';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { AccountId, Ledger } from '../../ledger/ledger.ts';
import { type CustomerWalletRow, findCustomerWallet } from '../../ledger/wallets.ts';
import { limitsOrRefuse } from '../../money-out/money-out.ts';
import { accountIban } from '../../platform/account-iban.ts';
import { AppError } from '../../platform/app-error.ts';
import { publishEvent } from '../../platform/events.ts';
import { notify } from '../../platform/notifications.ts';
import {
  dailyNetsSince,
  lockWalletBalance,
  monthlyDebitsSince,
  type PayoutMethod,
  type QuickPayCounterpartyColumns,
  testMoneyAddedToday,
  type UnsettledPayoutRow,
  unsettledPayouts,
  type WalletLineRow,
  walletLines,
} from './queries.ts';

export type WalletDeps = { db: Database; ledger: Ledger; config: Config };

/** A customer's wallet, as the routes need it: whose it is, its id, number and currency. */
export type CustomerWallet = CustomerWalletRow & { ownerUserId: string };

export async function requireWallet(deps: WalletDeps, userId: string): Promise<CustomerWallet> {
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!wallet) throw new AppError('not_found', { message: 'You have no wallet.' });
  return { ...wallet, ownerUserId: userId };
}

export async function walletSummary(
  deps: WalletDeps,
  wallet: CustomerWallet,
): Promise<WalletSummary> {
  const balance = await deps.ledger.balance(wallet.id);
  return {
    accountNumber: wallet.number,
    iban: deps.config.ibanScheme ? accountIban(deps.config.ibanScheme, wallet.number) : null,
    currency: balance.currency,
    balanceMinor: minorUnits(balance.balanceMinor),
    heldMinor: minorUnits(balance.heldMinor),
    availableMinor: minorUnits(balance.availableMinor),
  };
}

/**
 * What a wallet's line says to its owner: its memo, or for a Quick Pay "Quick Pay to J***
 * D***" on the sender's line and "Quick Pay from …" on the recipient's, with the note. The
 * dashboard, statements and the staff's transaction list all describe lines this way.
 */
export function describeLine(row: { memo: string } & QuickPayCounterpartyColumns): string {
  if (row.counterparty_masked_name === null) return row.memo;
  const direction = row.is_transfer_sender ? 'to' : 'from';
  const description = `Quick Pay ${direction} ${row.counterparty_masked_name}`;
  return row.transfer_note ? `${description}: ${row.transfer_note}` : description;
}

function lineTransaction(row: WalletLineRow): WalletTransaction {
  return {
    id: `line-${row.line_id}`,
    status: 'completed',
    createdAt: row.created_at.toISOString(),
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    kind: row.kind,
    description: describeLine(row),
    entryId: row.entry_id,
    disputeReference: row.dispute_reference,
  };
}

const payoutDestinations: Record<PayoutMethod, string> = {
  bank: 'bank account',
  paypal: 'PayPal',
  cashapp: 'CashApp',
  crypto: 'crypto wallet',
};

/** A payout not yet in the ledger: minus what it holds (amount and fee), as it would post. */
function payoutTransaction(row: UnsettledPayoutRow): WalletTransaction {
  const description = `Withdrawal to ${payoutDestinations[row.method]}`;
  return {
    id: `payout-${row.id}`,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    amountMinor: minorUnits(-(row.amount_minor + row.fee_minor)),
    currency: row.currency,
    kind: 'payout',
    entryId: null,
    disputeReference: null,
    description:
      row.status === 'rejected' && row.decision_reason
        ? `${description} (rejected: ${row.decision_reason})`
        : description,
  };
}

type TransactionCursor = { beforeLineId: bigint | null; beforePayoutId: string | null };

/** The cursor's two halves: the last line and the last payout already listed, if any. */
function parseCursor(cursor: string | undefined): TransactionCursor {
  const [lineId = '', payoutId = ''] = (cursor ?? '').split('~');
  return {
    beforeLineId: lineId === '' ? null : BigInt(lineId),
    beforePayoutId: payoutId === '' ? null : payoutId,
  };
}

function formatCursor(cursor: TransactionCursor): string {
  return `${cursor.beforeLineId ?? ''}~${cursor.beforePayoutId ?? ''}`;
}

/**
 * The wallet's ledger lines merged with its unsettled payouts, newest first. Each source
 * is read in its own index order from where the cursor left it, one more than a page of
 * each, and the two are merged by time: a page never repeats or skips an item.
 */
export async function walletTransactions(
  deps: WalletDeps,
  wallet: CustomerWallet,
  page: { cursor?: string | undefined; limit: number },
): Promise<WalletTransactionPage> {
  const cursor = parseCursor(page.cursor);
  const [lines, payouts] = await Promise.all([
    walletLines(deps.db, {
      wallet: { id: wallet.id, ownerUserId: wallet.ownerUserId },
      beforeLineId: cursor.beforeLineId,
      limit: page.limit + 1,
    }),
    unsettledPayouts(deps.db, {
      walletId: wallet.id,
      beforePayoutId: cursor.beforePayoutId,
      limit: page.limit + 1,
    }),
  ]);
  const items: WalletTransaction[] = [];
  const next: TransactionCursor = { ...cursor };
  let lineIndex = 0;
  let payoutIndex = 0;
  while (items.length < page.limit) {
    const line = lines[lineIndex];
    const payout = payouts[payoutIndex];
    if (!line && !payout) break;
    // On a tie the line goes first, so the order is the same however the pages fall.
    if (line && (!payout || line.created_at >= payout.created_at)) {
      items.push(lineTransaction(line));
      next.beforeLineId = line.line_id;
      lineIndex += 1;
    } else if (payout) {
      items.push(payoutTransaction(payout));
      next.beforePayoutId = payout.id;
      payoutIndex += 1;
    }
  }
  const hasMore = lineIndex < lines.length || payoutIndex < payouts.length;
  return { items, nextCursor: hasMore ? formatCursor(next) : null };
}

const dayMs = 24 * 60 * 60 * 1000;

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * What the customer spent in each of the last `spendingMonths` UTC months (this one
 * included), by category, oldest month first; a month without spending is all zeros.
 */
export async function spending(
  deps: WalletDeps,
  wallet: CustomerWallet,
  now = new Date(),
): Promise<Spending> {
  const months = Array.from(
    { length: spendingMonths },
    (_, index) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (spendingMonths - 1) + index, 1)),
  );
  const debits = await monthlyDebitsSince(deps.db, wallet.id, months[0] ?? now, spendingCategories);
  return {
    currency: wallet.currency,
    months: months.map((start) => {
      const month = start.toISOString().slice(0, 7);
      const spentMinor = Object.fromEntries(
        spendingCategories.map((category) => [
          category,
          minorUnits(
            debits.find((row) => row.month === month && row.kind === category)?.debitsMinor ?? 0n,
          ),
        ]),
      ) as Spending['months'][number]['spentMinor'];
      return { month, spentMinor };
    }),
  };
}

/**
 * The balance at the end of each of the last `days` UTC days, oldest first; today's is
 * the balance now. Worked backwards from the current balance: the end of a day is now
 * minus everything posted after it.
 */
export async function balanceHistory(
  deps: WalletDeps,
  wallet: CustomerWallet,
  days: number,
  now = new Date(),
): Promise<BalanceHistory> {
  const todayStartMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const firstDayStart = new Date(todayStartMs - (days - 1) * dayMs);
  const { balanceMinor, heldMinor, netMinorByDay } = await dailyNetsSince(
    deps.db,
    wallet.id,
    firstDayStart,
  );
  const dates = Array.from({ length: days }, (_, index) =>
    utcDay(new Date(firstDayStart.getTime() + index * dayMs)),
  );
  // Lines dated after today (a clock running ahead of ours) count as after every day.
  let postedAfterMinor = [...netMinorByDay]
    .filter(([day]) => day > (dates.at(-1) ?? ''))
    .reduce((sum, [, netMinor]) => sum + netMinor, 0n);
  const points: BalanceHistory['points'] = [];
  for (const date of dates.toReversed()) {
    points.push({ date, balanceMinor: minorUnits(balanceMinor - postedAfterMinor) });
    postedAfterMinor += netMinorByDay.get(date) ?? 0n;
  }
  return {
    currency: wallet.currency,
    points: points.toReversed(),
    heldMinor: minorUnits(heldMinor),
  };
}

export async function recentDeposits(
  deps: WalletDeps,
  wallet: CustomerWallet,
  limit: number,
): Promise<WalletTransaction[]> {
  const rows = await walletLines(deps.db, {
    wallet: { id: wallet.id, ownerUserId: wallet.ownerUserId },
    beforeLineId: null,
    limit,
    isDepositsOnly: true,
  });
  return rows.map(lineTransaction);
}

/** The amount in minor units, or the field error saying what is wrong with it. */
function testMoneyAmountOf(amount: string, currency: CurrencyCode, limits: CurrencyLimits): bigint {
  try {
    return parseTestMoneyAmount(amount, currency, limits.testMoneyPerRequestMinor);
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    throw new AppError('validation_failed', {
      message: error.message,
      fields: { amount: error.message },
    });
  }
}

const testMoneyMemo = 'Sandbox test money';

/** Sandbox only: the caps the Add test money form shows and checks before sending. */
export async function testMoneyTerms(
  deps: WalletDeps,
  target: { wallet: CustomerWallet; sandboxFundingId: AccountId },
): Promise<TestMoneyTerms> {
  const currency = toCurrencyCode(target.wallet.currency);
  const limits = limitsOrRefuse(deps.config.limits, currency);
  const addedMinor = await testMoneyAddedToday(deps.db, target.wallet.id, target.sandboxFundingId);
  return {
    currency,
    perRequestMinor: minorUnits(limits.testMoneyPerRequestMinor),
    dailyMinor: minorUnits(limits.testMoneyDailyMinor),
    addedTodayMinor: minorUnits(addedMinor),
  };
}

/**
 * A customer's test money is capped per UTC day as well as per request, so a sandbox
 * wallet cannot be filled without bound by repeating the form.
 */
async function refuseOverDailyTestMoney(
  tx: Queryable,
  target: { wallet: CustomerWallet; sandboxFundingId: AccountId },
  request: { amountMinor: bigint; currency: CurrencyCode; limits: CurrencyLimits },
): Promise<void> {
  // Parallel requests are counted one after the other.
  await lockWalletBalance(tx, target.wallet.id);
  const addedMinor = await testMoneyAddedToday(tx, target.wallet.id, target.sandboxFundingId);
  const capMinor = request.limits.testMoneyDailyMinor;
  if (addedMinor + request.amountMinor <= capMinor) return;
  const leftMinor = capMinor > addedMinor ? capMinor - addedMinor : 0n;
  const format = (amountMinor: bigint) => formatMoney({ amountMinor, currency: request.currency });
  throw new AppError('daily_limit_exceeded', {
    message: `Test money is limited to ${format(capMinor)} a day. You can add ${format(leftMinor)} more today.`,
  });
}

/**
 * Sandbox only: credits the wallet from the sandbox funding account, as a deposit entry
 * the customer caused. `sandboxFundingId` is looked up before the transaction opens.
 */
export async function addTestMoney(
  deps: WalletDeps,
  tx: Queryable,
  target: { wallet: CustomerWallet; sandboxFundingId: AccountId },
  body: TestMoneyBody,
) {
  const { wallet } = target;
  const currency = toCurrencyCode(wallet.currency);
  const limits = limitsOrRefuse(deps.config.limits, currency);
  const amountMinor = testMoneyAmountOf(body.amount, currency, limits);
  await refuseOverDailyTestMoney(tx, target, { amountMinor, currency, limits });
  const { entryId } = await deps.ledger.post(
    {
      kind: 'deposit',
      memo: testMoneyMemo,
      actorUserId: wallet.ownerUserId,
      lines: [
        { accountId: target.sandboxFundingId, amountMinor: -amountMinor },
        { accountId: wallet.id, amountMinor },
      ],
    },
    tx,
  );
  await notify(
    tx,
    {
      userId: wallet.ownerUserId,
      kind: 'test_money_added',
      text: `${formatMoney({ amountMinor, currency })} of sandbox test money was added to your account.`,
      link: '/dashboard',
    },
    deps.config,
  );
  await publishEvent(tx, { userId: wallet.ownerUserId, topics: ['wallet'] });
  return { entryId, amountMinor: minorUnits(amountMinor), currency: wallet.currency };
}
