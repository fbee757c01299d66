import {
  type BillPayment,
  type BillPaymentBody,
  type BillPaymentList,
  billCategoryLabels,
} from '@coffer/contracts/bills';
import type { CurrencyCode } from '@coffer/contracts/currencies';
import type { CurrencyLimits } from '@coffer/contracts/limits';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { Config } from '../../config.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { AccountId, Ledger } from '../../ledger/ledger.ts';
import { findOwnWallet } from '../../ledger/wallets.ts';
import { limitsOrRefuse, lockMoneyOut } from '../../money-out/money-out.ts';
import { positiveAmountOrRefuse } from '../../platform/amounts.ts';
import { AppError } from '../../platform/app-error.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import { type BillPaymentRow, billPaymentsOf, insertBillPayment } from './queries.ts';

export type BillDeps = { db: Database; ledger: Ledger; config: Config };

/** What a payment needs from outside its transaction (PGlite allows no lookups inside). */
export type PreparedBillPayment = {
  /** The wallet it leaves from: the one the customer chose, or their main one. */
  walletId: AccountId;
  amountMinor: bigint;
  currency: CurrencyCode;
  limits: CurrencyLimits;
  billClearingId: AccountId;
};

function toBillPayment(row: BillPaymentRow): BillPayment {
  return {
    id: row.id,
    category: row.category,
    billerReference: row.biller_reference,
    amountMinor: minorUnits(row.amount_minor),
    currency: row.currency,
    status: 'completed',
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Finds the wallet the bill is paid from (the chosen one, if it is the customer's own, or
 * the main one), parses the typed amount in its currency and finds that currency's
 * bill-clearing account.
 */
export async function prepareBillPayment(
  deps: BillDeps,
  userId: string,
  body: BillPaymentBody,
): Promise<PreparedBillPayment> {
  const wallet = await findOwnWallet(deps.db, userId, body.walletId);
  if (!wallet) throw new AppError('not_found', { message: 'You have no such wallet.' });
  const { currency } = wallet;
  return {
    walletId: wallet.id,
    amountMinor: positiveAmountOrRefuse(body.amount, currency, 'bill'),
    currency,
    limits: limitsOrRefuse(deps.config.limits, currency),
    billClearingId: await deps.ledger.systemAccount('bill_clearing', currency),
  };
}

/**
 * Pays a bill at once from the prepared wallet: the money-out checks (frozen, verified,
 * level, the daily limit in its currency) under the wallet's lock, then the debit to bill clearing, which the ledger refuses when the
 * available balance is short. Runs inside the idempotent request's transaction.
 */
export async function payBill(
  deps: BillDeps,
  tx: Queryable,
  userId: string,
  body: BillPaymentBody,
  prepared: PreparedBillPayment,
): Promise<BillPayment> {
  const sender = await lockMoneyOut(tx, {
    userId,
    walletId: prepared.walletId,
    kind: 'bill_payment',
    amountMinor: prepared.amountMinor,
    currency: prepared.currency,
    limits: prepared.limits,
  });
  const { entryId } = await deps.ledger.post(
    {
      kind: 'bill_payment',
      memo: `${billCategoryLabels[body.category]} bill (ref. ${body.billerReference})`,
      actorUserId: userId,
      lines: [
        { accountId: sender.walletId, amountMinor: -prepared.amountMinor },
        { accountId: prepared.billClearingId, amountMinor: prepared.amountMinor },
      ],
    },
    tx,
  );
  const row = await insertBillPayment(tx, {
    id: newId(),
    userId,
    accountId: sender.walletId,
    category: body.category,
    billerReference: body.billerReference,
    amountMinor: prepared.amountMinor,
    currency: prepared.currency,
    entryId,
  });
  await notify(
    tx,
    {
      userId,
      kind: 'bill_paid',
      text: `You paid ${formatMoney({ amountMinor: prepared.amountMinor, currency: prepared.currency })} for your ${billCategoryLabels[body.category].toLowerCase()} bill.`,
      link: '/pay-bills',
    },
    deps.config,
  );
  await publishEvent(tx, { userId, topics: ['bill-payments', 'wallet'] });
  return toBillPayment(row);
}

export async function billPaymentHistory(
  deps: BillDeps,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<BillPaymentList> {
  // One row more than asked tells whether another page follows.
  const rows = await billPaymentsOf(deps.db, userId, { ...page, limit: page.limit + 1 });
  const items = rows.slice(0, page.limit);
  return {
    items: items.map(toBillPayment),
    nextCursor: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null,
  };
}
