import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { accountNumberSchema } from '@coffer/contracts/ledger';
import { majorToMinor, stepUpThresholdMajor } from '@coffer/contracts/limits';
import { MoneyParseError, parseAmount } from '@coffer/contracts/money';
import {
  currencyMismatchMessage,
  type QuickPayBody,
  type RecipientPreview,
  type Transfer,
  type TransferList,
  type TransferListItem,
} from '@coffer/contracts/transfers';
import type { Database, Queryable } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { publishEvent } from '../../platform/events.ts';
import { checkStepUp, type StepUpDeps, type StepUpProof, spendStepUp } from '../step-up/service.ts';
import { lockMoneyOut } from '../wallet/money-out.ts';
import {
  type CustomerWalletRow,
  findCustomerWallet,
  insertTransfer,
  lockWalletsInIdOrder,
  type TransferListRow,
  transfersOfUser,
} from './queries.ts';

export type TransferDeps = StepUpDeps & { db: Database; ledger: Ledger };

const invalidAmountMessage = 'Invalid withdrawal amount';
const sendToSelfMessage = 'You cannot send money to yourself.';
const defaultMemo = 'Quick Pay';

/** "Alice Morgan" → "A*** M***": enough to recognise the person, not to learn their name. */
export function maskName(username: string): string {
  return username
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => `${Array.from(word)[0]}***`)
    .join(' ');
}

/** The recipient a sender typed (account number or email), never the sender themself. */
async function findRecipient(
  deps: TransferDeps,
  senderUserId: string,
  recipient: string,
): Promise<CustomerWalletRow> {
  const isAccountNumber = accountNumberSchema.safeParse(recipient).success;
  const found = await findCustomerWallet(
    deps.db,
    isAccountNumber ? 'accountNumber' : 'email',
    recipient,
  );
  if (!found) throw new AppError('recipient_not_found');
  if (found.user_id === senderUserId) {
    throw new AppError('own_account', { message: sendToSelfMessage });
  }
  return found;
}

async function senderWallet(deps: TransferDeps, senderUserId: string): Promise<CustomerWalletRow> {
  const found = await findCustomerWallet(deps.db, 'userId', senderUserId);
  if (!found) throw new AppError('not_found', { message: 'You have no wallet to send from.' });
  return found;
}

export async function previewRecipient(
  deps: TransferDeps,
  senderUserId: string,
  recipient: string,
): Promise<RecipientPreview> {
  const found = await findRecipient(deps, senderUserId, recipient);
  return { maskedName: maskName(found.username), currency: found.currency };
}

function parseTransferAmount(amount: string, currency: CurrencyCode): bigint {
  let amountMinor: bigint;
  try {
    amountMinor = parseAmount(amount, currency);
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    amountMinor = 0n;
  }
  if (amountMinor <= 0n) {
    throw new AppError('validation_failed', {
      message: invalidAmountMessage,
      fields: { amount: invalidAmountMessage },
    });
  }
  return amountMinor;
}

/** Everything a Quick Pay needs, looked up and checked before its transaction opens. */
export type QuickPayPlan = {
  sender: CustomerWalletRow;
  recipient: CustomerWalletRow;
  currency: CurrencyCode;
  amountMinor: bigint;
  note: string | null;
  stepUpProof: StepUpProof | null;
};

/**
 * Reads the amount in the sender's currency, finds the recipient and checks the step-up
 * code when the amount needs one. Runs outside the transaction (PGlite runs one at a
 * time, and a wrong code must use up its try even though the payment is refused).
 */
export async function planQuickPay(
  deps: TransferDeps,
  senderUserId: string,
  body: QuickPayBody,
): Promise<QuickPayPlan> {
  const sender = await senderWallet(deps, senderUserId);
  const currency = toCurrencyCode(sender.currency);
  const amountMinor = parseTransferAmount(body.amount, currency);
  const recipient = await findRecipient(deps, senderUserId, body.recipient);
  if (recipient.currency !== sender.currency) {
    throw new AppError('currency_mismatch', {
      message: currencyMismatchMessage(sender.currency, recipient.currency),
    });
  }
  const needsStepUp = amountMinor >= majorToMinor(stepUpThresholdMajor, currency);
  const stepUpProof = needsStepUp
    ? await checkStepUp(deps, senderUserId, 'transfer', body.stepUpCode)
    : null;
  return { sender, recipient, currency, amountMinor, note: body.note || null, stepUpProof };
}

/**
 * Moves the money: the sender's checks under the wallet lock, the step-up code spent,
 * one ledger entry, the transfer's record, and a live event to each side. The ledger
 * refuses an amount above the available balance in the same statement that moves it.
 */
export async function sendQuickPay(
  deps: TransferDeps,
  tx: Queryable,
  plan: QuickPayPlan,
): Promise<Transfer> {
  const { sender, recipient, amountMinor } = plan;
  await lockWalletsInIdOrder(tx, [sender.wallet_id, recipient.wallet_id]);
  const locked = await lockMoneyOut(tx, { userId: sender.user_id, kind: 'transfer', amountMinor });
  assert(locked.walletId === sender.wallet_id, 'a customer keeps one wallet');
  if (plan.stepUpProof) await spendStepUp(tx, plan.stepUpProof);
  const { entryId } = await deps.ledger.post(
    {
      kind: 'transfer',
      memo: plan.note ?? defaultMemo,
      actorUserId: sender.user_id,
      lines: [
        { accountId: sender.wallet_id, amountMinor: -amountMinor },
        { accountId: recipient.wallet_id, amountMinor },
      ],
    },
    tx,
  );
  const { created_at } = await insertTransfer(tx, {
    entryId,
    senderUserId: sender.user_id,
    recipientUserId: recipient.user_id,
    amountMinor,
    currency: plan.currency,
    note: plan.note,
  });
  for (const userId of [sender.user_id, recipient.user_id]) {
    await publishEvent(tx, { userId, topics: ['wallet', 'transfers'] });
  }
  return {
    entryId,
    amountMinor: amountMinor.toString(),
    currency: plan.currency,
    recipientMaskedName: maskName(recipient.username),
    note: plan.note,
    createdAt: created_at.toISOString(),
  };
}

function toListItem(row: TransferListRow): TransferListItem {
  return {
    entryId: row.entry_id,
    direction: row.is_sent ? 'sent' : 'received',
    counterpartyMaskedName: maskName(row.counterparty_username),
    amountMinor: row.amount_minor.toString(),
    currency: row.currency,
    note: row.note,
    createdAt: row.created_at.toISOString(),
  };
}

export async function transfersOf(
  deps: TransferDeps,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<TransferList> {
  const rows = await transfersOfUser(deps.db, userId, { ...page, limit: page.limit + 1 });
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toListItem);
  return { items, nextCursor: hasMore ? (items.at(-1)?.entryId ?? null) : null };
}
