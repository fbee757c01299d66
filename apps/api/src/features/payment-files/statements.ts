import { createHash } from 'node:crypto';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { accountNumberSchema } from '@coffer/contracts/ledger';
import { toDecimalString } from '@coffer/contracts/money';
import type {
  ReconciliationItem,
  ResolveReconciliationBody,
  StatementImport,
} from '@coffer/contracts/payment-files';
import type { Queryable } from '../../db/client.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { assert } from '../../platform/assert.ts';
import { recordAudit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import {
  createMoneyRequest,
  type MoneyRequestTarget,
  moneyRequestTarget,
} from '../deposits/service.ts';
import { type PaymentFileDeps, payoutIdOf } from './batches.ts';
import { parseCamt053, type StatementTransaction } from './camt.ts';
import {
  customerWalletsByNumber,
  findItem,
  insertItem,
  insertStatement,
  isFileImported,
  isItemOpen,
  isPurchaseRefunded,
  isStatementReferenceImported,
  itemsWithStatus,
  lockPaymentFileImports,
  markPayoutsMatched,
  type NewReconciliationItem,
  type ReconciliationItemRow,
  recordResolution,
  recordStatementCounts,
  type SentPayoutRow,
  sentPayoutsOfBatches,
  toReconciliationItem,
  unseenPayoutsOfBatches,
} from './queries.ts';

/** Ten digits with a valid check digit: how a customer writes their account number. */
function accountNumbersIn(text: string | null): string[] {
  return [...(text ?? '').matchAll(/(?<!\d)\d{10}(?!\d)/g)]
    .map((match) => match[0])
    .filter((digits) => accountNumberSchema.safeParse(digits).success);
}

type CreditPlan =
  | { transaction: StatementTransaction; target: MoneyRequestTarget }
  | { transaction: StatementTransaction; reason: string };

/**
 * What each credit becomes, found before the import's transaction (PGlite): a deposit
 * request for the one customer whose account number its remittance information names in
 * the statement's currency, or a queue item saying why not.
 */
async function planCredits(
  deps: PaymentFileDeps,
  credits: StatementTransaction[],
): Promise<CreditPlan[]> {
  const numbers = [...new Set(credits.flatMap((credit) => accountNumbersIn(credit.remittance)))];
  const wallets = new Map(
    (await customerWalletsByNumber(deps.db, numbers)).map((wallet) => [wallet.number, wallet]),
  );
  const targets = new Map<string, MoneyRequestTarget>();
  const plans: CreditPlan[] = [];
  for (const transaction of credits) {
    const named = [...new Set(accountNumbersIn(transaction.remittance))].flatMap((number) => {
      const wallet = wallets.get(number);
      return wallet ? [wallet] : [];
    });
    const [wallet] = named;
    if (!wallet) {
      plans.push({ transaction, reason: 'Its remittance information names no customer account' });
    } else if (named.length > 1) {
      plans.push({ transaction, reason: 'Its remittance information names several accounts' });
    } else if (wallet.currency !== transaction.currency) {
      plans.push({
        transaction,
        reason: `It is in ${transaction.currency}; account ${wallet.number} holds ${wallet.currency}`,
      });
    } else {
      const target =
        targets.get(wallet.user_id) ?? (await moneyRequestTarget(deps, wallet.user_id));
      targets.set(wallet.user_id, target);
      plans.push({ transaction, target });
    }
  }
  return plans;
}

function itemOf(
  statementId: string,
  transaction: StatementTransaction,
  item: Pick<NewReconciliationItem, 'kind' | 'reason' | 'payoutId' | 'expectedMinor'>,
): NewReconciliationItem {
  return {
    id: newId(),
    bankStatementId: statementId,
    amountMinor: transaction.amountMinor,
    currency: transaction.currency,
    bookingDate: transaction.bookingDate,
    counterparty: transaction.counterparty,
    remittance: transaction.remittance,
    bankReference: transaction.bankReference ?? transaction.endToEndId,
    ...item,
  };
}

type DebitOutcome = { matchedPayoutIds: string[]; items: NewReconciliationItem[] };

/**
 * Matches the debits to our sent payouts: by end-to-end id to one payout (a different
 * amount is queued), or by batch reference to a whole batch booked as one entry.
 */
function matchDebits(
  statementId: string,
  debits: StatementTransaction[],
  sent: SentPayoutRow[],
): DebitOutcome {
  const byId = new Map(sent.map((payout) => [payout.id, payout]));
  const outcome: DebitOutcome = { matchedPayoutIds: [], items: [] };
  const unmatched = (transaction: StatementTransaction, reason: string) =>
    outcome.items.push(
      itemOf(statementId, transaction, {
        kind: 'unmatched_debit',
        reason,
        payoutId: null,
        expectedMinor: null,
      }),
    );
  for (const transaction of debits) {
    const payoutId = transaction.endToEndId ? payoutIdOf(transaction.endToEndId) : null;
    const payout = payoutId ? byId.get(payoutId) : undefined;
    if (payout) {
      if (payout.bank_statement_id !== null || outcome.matchedPayoutIds.includes(payout.id)) {
        unmatched(transaction, 'Its payout was already debited in a statement');
        continue;
      }
      outcome.matchedPayoutIds.push(payout.id);
      if (
        payout.amount_minor !== transaction.amountMinor ||
        payout.currency !== transaction.currency
      ) {
        outcome.items.push(
          itemOf(statementId, transaction, {
            kind: 'amount_difference',
            reason: `The bank debited ${toDecimalString(transaction.amountMinor, transaction.currency)} ${transaction.currency}; the payout was ${toDecimalString(payout.amount_minor, toCurrencyCode(payout.currency))} ${payout.currency}`,
            payoutId: payout.id,
            expectedMinor: payout.amount_minor,
          }),
        );
      }
      continue;
    }
    const batch = sent.filter(
      (row) => row.batch_reference === transaction.batchReference && row.bank_statement_id === null,
    );
    const batchTotal = batch.reduce((total, row) => total + row.amount_minor, 0n);
    if (batch.length > 0 && batchTotal === transaction.amountMinor) {
      outcome.matchedPayoutIds.push(...batch.map((row) => row.id));
    } else {
      unmatched(
        transaction,
        batch.length > 0
          ? `Batch ${transaction.batchReference} totals ${toDecimalString(batchTotal, transaction.currency)}, not this amount`
          : 'It names none of our sent payouts or batches',
      );
    }
  }
  return outcome;
}

/**
 * The sent payouts the debits name, looked up under the import lock: read before it, two
 * statements at once would both match one payout and neither queue the second debit.
 */
function sentPayoutsNamed(tx: Queryable, debits: StatementTransaction[]) {
  return sentPayoutsOfBatches(tx, {
    payoutIds: debits.flatMap((debit) => {
      const payoutId = debit.endToEndId ? payoutIdOf(debit.endToEndId) : null;
      return payoutId ? [payoutId] : [];
    }),
    batchReferences: debits.flatMap((debit) =>
      debit.batchReference ? [debit.batchReference] : [],
    ),
  });
}

/** Queues the payouts of the batches this statement touched that no statement has shown. */
async function queueMissingPayouts(
  tx: Queryable,
  statementId: string,
  batchIds: string[],
): Promise<number> {
  const missing = await unseenPayoutsOfBatches(tx, batchIds);
  for (const payout of missing) {
    const currency = toCurrencyCode(payout.currency);
    await insertItem(tx, {
      id: newId(),
      kind: 'missing_payout',
      bankStatementId: statementId,
      payoutId: payout.id,
      amountMinor: payout.amount_minor,
      expectedMinor: payout.amount_minor,
      currency,
      bookingDate: null,
      counterparty: null,
      remittance: null,
      bankReference: payout.reference,
      reason: `Sent in batch ${payout.reference}, but no statement has debited it`,
    });
  }
  return missing.length;
}

/**
 * A bank's message id names one statement: the same statement saved again (one byte
 * changed, so another hash) is refused too, or its credits would be deposited twice.
 */
async function refuseImportedReference(
  db: Queryable,
  iban: string,
  reference: string,
): Promise<void> {
  if (await isStatementReferenceImported(db, iban, reference)) {
    throw new AppError('file_already_imported', {
      message: `Statement ${reference} of this account was already imported.`,
    });
  }
}

/**
 * Imports a camt.053 statement of the institution's account: credits that name one
 * customer's account become deposit requests (the deposits feature's path and four-eyes
 * rules, made by the uploader), debits are matched to the sent payout batches, and
 * everything else, with the payouts of the touched batches still missing, goes to the
 * reconciliation queue. All in one transaction; the same file twice is refused by hash.
 */
export async function importStatement(
  deps: PaymentFileDeps,
  bytes: Buffer,
  action: StaffAction,
): Promise<StatementImport> {
  const bank = deps.config.bankAccount;
  if (!bank) throw new AppError('bank_account_not_set');
  const fileSha256 = createHash('sha256').update(bytes).digest('hex');
  if (await isFileImported(deps.db, 'bank_statements', fileSha256))
    throw new AppError('file_already_imported');
  const statement = parseCamt053(bytes, bank.iban);
  await refuseImportedReference(deps.db, bank.iban, statement.reference);
  const credits = statement.transactions.filter((transaction) => transaction.isCredit);
  const debits = statement.transactions.filter((transaction) => !transaction.isCredit);
  const plans = await planCredits(deps, credits);
  const statementId = newId();
  const counts = await deps.db.transaction(async (tx) => {
    await lockPaymentFileImports(tx);
    const sent = await sentPayoutsNamed(tx, debits);
    const outcome = matchDebits(statementId, debits, sent);
    // Under the import lock: two uploads of one statement at once cannot both pass.
    await refuseImportedReference(tx, bank.iban, statement.reference);
    const isNew = await insertStatement(tx, {
      id: statementId,
      fileSha256,
      reference: statement.reference,
      iban: bank.iban,
      entryCount: statement.transactions.length,
      uploadedByUserId: action.staff.userId,
    });
    if (!isNew) throw new AppError('file_already_imported');
    let depositRequests = 0;
    const items = [...outcome.items];
    for (const plan of plans) {
      const { transaction } = plan;
      if ('target' in plan) {
        await createMoneyRequest(
          deps,
          tx,
          plan.target,
          'deposit',
          {
            amount: toDecimalString(transaction.amountMinor, transaction.currency),
            externalReference: transaction.bankReference ?? undefined,
          },
          { ...action, reason: `Bank statement ${statement.reference}: incoming credit` },
        );
        depositRequests += 1;
      } else {
        items.push(
          itemOf(statementId, transaction, {
            kind: 'unmatched_credit',
            reason: plan.reason,
            payoutId: null,
            expectedMinor: null,
          }),
        );
      }
    }
    for (const item of items) await insertItem(tx, item);
    await markPayoutsMatched(tx, statementId, outcome.matchedPayoutIds);
    const touchedBatches = [
      ...new Set(
        sent.filter((row) => outcome.matchedPayoutIds.includes(row.id)).map((row) => row.batch_id),
      ),
    ];
    const missing = await queueMissingPayouts(tx, statementId, touchedBatches);
    const result = {
      depositRequests,
      matchedPayouts: outcome.matchedPayoutIds.length,
      queued: items.length + missing,
    };
    await recordStatementCounts(tx, statementId, result);
    await recordAudit(tx, {
      action: 'bank_statement_imported',
      actorUserId: action.staff.userId,
      subjectUserId: null,
      after: { reference: statement.reference, fileSha256, ...result },
      ipAddress: action.ipAddress,
    });
    return result;
  });
  return {
    id: statementId,
    statementReference: statement.reference,
    entryCount: statement.transactions.length,
    depositRequestCount: counts.depositRequests,
    matchedPayoutCount: counts.matchedPayouts,
    queuedCount: counts.queued,
  };
}

const queueLengthMax = 200;

/** The customer whose account number staff typed, for a deposit request. */
async function depositTarget(
  deps: PaymentFileDeps,
  accountNumber: string,
): Promise<MoneyRequestTarget> {
  const [wallet] = await customerWalletsByNumber(deps.db, [accountNumber]);
  if (!wallet) {
    const message = 'No customer has this account number';
    throw new AppError('validation_failed', { message, fields: { accountNumber: message } });
  }
  return moneyRequestTarget(deps, wallet.user_id);
}

export async function reconciliationItems(
  deps: PaymentFileDeps,
  status: 'open' | 'resolved',
): Promise<ReconciliationItem[]> {
  return (await itemsWithStatus(deps.db, status, queueLengthMax)).map(toReconciliationItem);
}

/** Refuses a resolution that moves money where the item gives it no sense. */
function refuseUnlessMovable(item: ReconciliationItemRow, body: ResolveReconciliationBody): void {
  const refusal =
    body.action === 'deposit' && item.kind !== 'unmatched_credit'
      ? 'Only a credit that matched no customer can be credited to one'
      : body.action === 'refund' && (item.refundable_minor === null || !item.card_user_id)
        ? 'Only a card purchase we took more for than the processor settled can be refunded'
        : null;
  if (refusal) {
    throw new AppError('validation_failed', { message: refusal, fields: { action: refusal } });
  }
}

/** Who gets the money of a resolution that moves some, and how much; null for a note. */
async function moneyOfResolution(
  deps: PaymentFileDeps,
  item: ReconciliationItemRow,
  body: ResolveReconciliationBody,
): Promise<{ target: MoneyRequestTarget; amountMinor: bigint } | null> {
  if (body.action === 'deposit') {
    return {
      target: await depositTarget(deps, body.accountNumber),
      amountMinor: item.amount_minor,
    };
  }
  if (body.action === 'refund' && item.card_user_id && item.refundable_minor !== null) {
    return {
      target: await moneyRequestTarget(deps, item.card_user_id),
      amountMinor: item.refundable_minor,
    };
  }
  return null;
}

/**
 * Staff resolve an open item: with a note (audited); for a credit that matched no
 * customer, by crediting the customer it was meant for; for a card purchase we took more
 * for than the processor settled (or that it never settled), by refunding the cardholder
 * the difference. Both moves of money are a deposit request that always waits for a
 * second admin (approvals/), whoever resolves it.
 */
export async function resolveItem(
  deps: PaymentFileDeps,
  itemId: string,
  body: ResolveReconciliationBody,
  action: StaffAction,
): Promise<ReconciliationItem> {
  const unlocked = await findItem(deps.db, itemId);
  if (!unlocked) throw new AppError('not_found');
  refuseUnlessMovable(unlocked, body);
  const money = await moneyOfResolution(deps, unlocked, body);
  await deps.db.transaction(async (tx) => {
    const item = await findItem(tx, itemId, { isLocked: true });
    assert(item, 'an item found is still there');
    if (!isItemOpen(item)) throw new AppError('already_decided');
    // One purchase, however many items name it (a difference, then missing from a resent
    // file), is refunded once.
    if (
      body.action === 'refund' &&
      item.card_authorization_id !== null &&
      (await isPurchaseRefunded(tx, item.card_authorization_id))
    ) {
      const message = 'This card purchase was refunded from the queue already';
      throw new AppError('validation_failed', { message, fields: { action: message } });
    }
    const currency = toCurrencyCode(item.currency);
    let moneyRequestId: string | null = null;
    if (money) {
      const request = await createMoneyRequest(
        deps,
        tx,
        money.target,
        'deposit',
        {
          amount: toDecimalString(money.amountMinor, currency),
          externalReference: item.bank_reference ?? undefined,
        },
        { ...action, reason: body.note },
        { isApprovalRequired: true },
      );
      if (request.currency !== item.currency) {
        throw new AppError('currency_mismatch', {
          message: `This item is in ${item.currency}; that customer's account holds ${request.currency}.`,
        });
      }
      moneyRequestId = request.id;
    }
    await recordResolution(tx, itemId, {
      resolution: body.action,
      note: body.note,
      moneyRequestId,
      resolvedByUserId: action.staff.userId,
    });
    await recordAudit(tx, {
      action: 'reconciliation_resolved',
      actorUserId: action.staff.userId,
      subjectUserId: money?.target.userId ?? null,
      before: { status: 'open', kind: item.kind, reason: item.reason },
      after: {
        status: 'resolved',
        resolution: body.action,
        amountMinor: (money?.amountMinor ?? item.amount_minor).toString(),
        currency: item.currency,
        moneyRequestId,
      },
      reason: body.note,
      ipAddress: action.ipAddress,
    });
  });
  const resolved = await findItem(deps.db, itemId);
  assert(resolved, 'an item resolved is still there');
  return toReconciliationItem(resolved);
}
