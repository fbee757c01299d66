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
import type { Database } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { toLedgerError } from '../../ledger/ledger-errors.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import type { EventHub } from '../../platform/events.ts';
import type { ClaimRow, IdempotencyClaim } from '../../platform/idempotency.ts';
import { newId } from '../../platform/ids.ts';
import {
  checkStepUp,
  type StepUpDeps,
  type StepUpProof,
  stepUpSpendParams,
  toStepUpError,
} from '../step-up/service.ts';
import { dailyLimitsMinorByLevel, toMoneyOutError } from '../wallet/money-out.ts';
import {
  type CustomerWalletRow,
  findSenderAndRecipient,
  type TransferListRow,
  transfersOfUser,
} from './queries.ts';

export type TransferDeps = StepUpDeps & { db: Database; ledger: Ledger; events: EventHub };

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

/**
 * The sender's wallet and the recipient they typed (account number or email), never the
 * sender themself.
 */
async function findParties(
  deps: TransferDeps,
  senderUserId: string,
  typedRecipient: string,
): Promise<{ sender: CustomerWalletRow; recipient: CustomerWalletRow }> {
  const isAccountNumber = accountNumberSchema.safeParse(typedRecipient).success;
  const { sender, recipient } = await findSenderAndRecipient(deps.db, senderUserId, {
    by: isAccountNumber ? 'accountNumber' : 'email',
    value: typedRecipient,
  });
  if (!sender) throw new AppError('not_found', { message: 'You have no wallet to send from.' });
  if (!recipient) throw new AppError('recipient_not_found');
  if (recipient.user_id === senderUserId) {
    throw new AppError('own_account', { message: sendToSelfMessage });
  }
  return { sender, recipient };
}

export async function previewRecipient(
  deps: TransferDeps,
  senderUserId: string,
  recipient: string,
): Promise<RecipientPreview> {
  const found = await findParties(deps, senderUserId, recipient);
  return { maskedName: maskName(found.recipient.username), currency: found.recipient.currency };
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
  const { sender, recipient } = await findParties(deps, senderUserId, body.recipient);
  const currency = toCurrencyCode(sender.currency);
  const amountMinor = parseTransferAmount(body.amount, currency);
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
 * Moves the money in one statement (drizzle/0007's quick_pay, ADR 009): the idempotency
 * claim with its answer, the sender's checks under the wallet locks, the step-up code
 * spent, one ledger entry and the transfer's record. The ledger refuses an amount above
 * the available balance in the same statement. Once it has committed, both sides hear.
 */
export async function sendQuickPay(
  deps: TransferDeps,
  claim: IdempotencyClaim,
  plan: QuickPayPlan,
): Promise<ClaimRow> {
  const { sender, recipient, amountMinor, currency } = plan;
  const answer: Omit<Transfer, 'entryId' | 'createdAt'> = {
    amountMinor: amountMinor.toString(),
    currency,
    recipientMaskedName: maskName(recipient.username),
    note: plan.note,
  };
  let result: { rows: ClaimRow[] };
  try {
    result = await deps.db.query<ClaimRow>(
      `SELECT * FROM quick_pay($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
                               $13::bigint[], $14, $15, $16)`,
      [
        claim.scope,
        claim.key,
        claim.requestHash,
        newId(),
        sender.user_id,
        sender.wallet_id,
        recipient.user_id,
        recipient.wallet_id,
        amountMinor.toString(),
        currency,
        plan.note ?? defaultMemo,
        plan.note,
        dailyLimitsMinorByLevel('transfer', currency),
        ...(plan.stepUpProof ? stepUpSpendParams(plan.stepUpProof) : [null, null]),
        JSON.stringify(answer),
      ],
      { preparedName: 'quick_pay' },
    );
  } catch (error) {
    const moneyOut = { userId: sender.user_id, kind: 'transfer', amountMinor, currency } as const;
    throw toStepUpError(toMoneyOutError(toLedgerError(error), moneyOut));
  }
  const row = result.rows[0];
  assert(row, 'quick_pay answers');
  if (row.is_claimed) {
    deps.events.publishCommitted(
      [sender.user_id, recipient.user_id].map((userId) => ({
        userId,
        topics: ['wallet', 'transfers'],
      })),
    );
  }
  return row;
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
