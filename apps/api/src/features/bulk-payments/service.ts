import {
  type BulkPayment,
  bulkFileTooLargeMessage,
  bulkPaymentBytesMax,
  bulkPaymentProblemsListedMax,
} from '@coffer/contracts/bulk-payments';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import type { Language } from '@coffer/contracts/languages';
import { type MinorUnits, minorUnits, toDecimalString } from '@coffer/contracts/money';
import { recipientRefusedMessage } from '@coffer/contracts/recipient';
import type { Database, Queryable } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import {
  limitsOrRefuse,
  lockMoneyOut,
  moneyOutAllowances,
  precheckMoneyOut,
} from '../../money-out/money-out.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import { type StepUpProof, spendStepUp } from '../../money-out/step-up-spend.ts';
import { AppError } from '../../platform/app-error.ts';
import { isAttemptLeft, spendAttempt } from '../../platform/attempt-counters.ts';
import { csvRow, utf8ByteOrderMark } from '../../platform/csv.ts';
import { decoded, FileProblems } from '../../platform/file-checks.ts';
import { translateText } from '../../platform/i18n.ts';
import { newId } from '../../platform/ids.ts';
import { failureLimits } from '../../platform/rate-limits.ts';
import type { SessionContext } from '../../platform/sessions.ts';
import { checkStepUp, type StepUpDeps } from '../step-up/service.ts';
import { recipientKeyOf } from '../transfers/service.ts';
import { type TypedLine, typedLines } from './file-check.ts';
import {
  type BulkPaymentRow,
  bulkPaymentsOfUser,
  type FoundRecipientRow,
  findBulkPayment,
  findRecipients,
  insertBulkPayment,
  markPaying,
  type NewBulkLine,
  resultLines,
} from './queries.ts';

export type BulkDeps = StepUpDeps & { db: Database; ledger: Ledger };

const bulkListLimit = 50;

function senderWalletOf(session: SessionContext): { id: string; currency: CurrencyCode } {
  if (!session.wallet) {
    throw new AppError('not_found', { message: 'You have no wallet to send from.' });
  }
  return { id: session.wallet.id, currency: toCurrencyCode(session.wallet.currency) };
}

/** The key a look-up is counted by, as Quick Pay counts it (transfers/service.ts). */
const recipientLookupSubject = (userId: string) => `customer:${userId}`;

type RecipientOutcome =
  | { kind: 'payable'; found: FoundRecipientRow }
  | { kind: 'own' }
  | { kind: 'refused' }
  | { kind: 'no_lookups_left' };

const lookupsUsedUpMessage =
  'recipient look-ups are used up for now, so this recipient was not checked; try again in 15 minutes';

function keyOf(typed: string): string {
  const key = recipientKeyOf(typed);
  return key.accountNumber ?? key.email ?? typed;
}

/**
 * Each distinct recipient of the file, in file order, judged as Quick Pay judges one
 * (transfers `checkRecipientCounted`): every refused one spends one of the customer's
 * recipient look-ups (`failureLimits.recipientLookup`), and once they are used up every
 * recipient after is refused unchecked, found or not. A file is thus no more an account
 * enumeration oracle than Quick Pay: it answers no more unknown recipients than the limit.
 */
async function judgeRecipients(
  deps: BulkDeps,
  sender: { userId: string; currency: CurrencyCode },
  lines: TypedLine[],
): Promise<Map<string, RecipientOutcome>> {
  const keys = [...new Set(lines.map((line) => keyOf(line.recipient)))];
  const found = await findRecipients(deps.db, {
    accountNumbers: keys.filter((key) => !key.includes('@')),
    emails: keys.filter((key) => key.includes('@')),
  });
  const foundByKey = new Map(found.map((row) => [row.typed_key.trim(), row]));
  const subject = recipientLookupSubject(sender.userId);
  const limit = failureLimits.recipientLookup;
  let isUsedUp = !(await isAttemptLeft(deps.db, limit, subject));
  const outcomes = new Map<string, RecipientOutcome>();
  for (const key of keys) {
    const row = foundByKey.get(key);
    if (isUsedUp) outcomes.set(key, { kind: 'no_lookups_left' });
    else if (row && row.user_id === sender.userId) outcomes.set(key, { kind: 'own' });
    else if (row && row.currency === sender.currency)
      outcomes.set(key, { kind: 'payable', found: row });
    else if (await spendAttempt(deps.db, limit, subject)) outcomes.set(key, { kind: 'refused' });
    else {
      isUsedUp = true;
      outcomes.set(key, { kind: 'no_lookups_left' });
    }
  }
  return outcomes;
}

function toNewLines(
  lines: TypedLine[],
  outcomes: Map<string, RecipientOutcome>,
  problems: FileProblems,
): NewBulkLine[] {
  const payable: NewBulkLine[] = [];
  for (const line of lines) {
    const outcome = outcomes.get(keyOf(line.recipient));
    if (outcome?.kind === 'payable') {
      payable.push({
        lineNumber: line.line,
        recipientUserId: outcome.found.user_id,
        recipientWalletId: outcome.found.wallet_id,
        recipient: line.recipient,
        amountMinor: line.amountMinor,
        reference: line.reference,
      });
    } else if (outcome?.kind === 'own') {
      problems.add(line.line, 'recipient', 'this is your own account; you cannot pay yourself');
    } else if (outcome?.kind === 'refused') {
      problems.add(line.line, 'recipient', recipientRefusedMessage);
    } else {
      problems.add(line.line, 'recipient', lookupsUsedUpMessage);
    }
  }
  return payable;
}

/**
 * Checks an uploaded file whole and keeps it, unpaid, for the customer to confirm: every
 * problem of every line refuses it (`file_refused`, listed by line), and then nothing is
 * kept. A file that passes is only a summary and its lines until it is confirmed.
 */
export async function checkBulkFile(
  deps: BulkDeps,
  session: SessionContext,
  bytes: Buffer,
): Promise<BulkPayment> {
  if (bytes.length > bulkPaymentBytesMax) {
    throw new AppError('payload_too_large', { message: bulkFileTooLargeMessage() });
  }
  const wallet = senderWalletOf(session);
  limitsOrRefuse(deps.config.limits, wallet.currency);
  const problems = new FileProblems(bulkPaymentProblemsListedMax);
  const lines = typedLines(decoded(bytes, { isBomAccepted: true }), wallet.currency, problems);
  const sender = { userId: session.userId, currency: wallet.currency };
  const outcomes = await judgeRecipients(deps, sender, lines);
  const payable = toNewLines(lines, outcomes, problems);
  problems.refuseIfAny();
  const totalMinor = payable.reduce((sum, line) => sum + line.amountMinor, 0n);
  const row = await deps.db.transaction((tx) =>
    insertBulkPayment(tx, {
      id: newId(),
      userId: session.userId,
      walletId: wallet.id,
      currency: wallet.currency,
      totalMinor,
      lines: payable.sort((a, b) => a.lineNumber - b.lineNumber),
    }),
  );
  return withAllowance(deps, row);
}

type TransferAllowance = { dailyLimitMinor: MinorUnits | null; spentTodayMinor: MinorUnits };

/** What the allowance reads with: the pool, or the transaction that just changed it. */
type AllowanceDeps = Pick<BulkDeps, 'config'> & { db: Queryable };

/** Today's Quick Pay limit and what is spent of it: a file counts against it whole. */
async function transferAllowanceOf(
  deps: AllowanceDeps,
  userId: string,
): Promise<TransferAllowance> {
  const allowances = await moneyOutAllowances(deps, userId).catch((error: unknown) => {
    // A staff member looking at someone with no wallet any more sees no allowance.
    if (error instanceof AppError && error.code === 'not_found') return null;
    throw error;
  });
  const transfer = allowances?.items.find((item) => item.kind === 'transfer');
  return {
    dailyLimitMinor: transfer?.dailyLimitMinor ?? null,
    spentTodayMinor: transfer?.spentTodayMinor ?? minorUnits(0n),
  };
}

function toBulkPayment(row: BulkPaymentRow, allowance: TransferAllowance): BulkPayment {
  return {
    id: row.id,
    status: row.status,
    currency: toCurrencyCode(row.currency),
    lineCount: row.line_count,
    paidCount: row.paid_count,
    refusedCount: row.refused_count,
    totalMinor: minorUnits(BigInt(row.total_minor)),
    paidMinor: minorUnits(BigInt(row.paid_minor)),
    ...allowance,
    createdAt: row.created_at.toISOString(),
    confirmedAt: row.confirmed_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

async function withAllowance(deps: AllowanceDeps, row: BulkPaymentRow): Promise<BulkPayment> {
  return toBulkPayment(row, await transferAllowanceOf(deps, row.user_id));
}

/** The customer's own file; another customer's answers 404, as if it did not exist. */
async function ownBulkPayment(
  deps: BulkDeps,
  userId: string,
  bulkPaymentId: string,
): Promise<BulkPaymentRow> {
  const row = await findBulkPayment(deps.db, userId, bulkPaymentId);
  if (!row) throw new AppError('not_found');
  return row;
}

export async function bulkPaymentOf(
  deps: BulkDeps,
  userId: string,
  bulkPaymentId: string,
): Promise<BulkPayment> {
  return withAllowance(deps, await ownBulkPayment(deps, userId, bulkPaymentId));
}

export async function bulkPaymentsOf(
  deps: BulkDeps,
  userId: string,
): Promise<{ items: BulkPayment[] }> {
  const rows = await bulkPaymentsOfUser(deps.db, userId, bulkListLimit);
  const allowance = await transferAllowanceOf(deps, userId);
  return { items: rows.map((row) => toBulkPayment(row, allowance)) };
}

type CheckedFile = { row: BulkPaymentRow; toConfirm: PaymentToConfirm };

/**
 * Everything that can refuse a checked file before its code: it waits for confirming,
 * and its total passes the sender's checks as one Quick Pay of that total would (frozen,
 * verified email, level, today's limit, the available balance).
 */
export async function precheckBulkPayment(
  deps: BulkDeps,
  session: SessionContext,
  bulkPaymentId: string,
): Promise<CheckedFile> {
  const row = await ownBulkPayment(deps, session.userId, bulkPaymentId);
  if (row.status !== 'checked') {
    throw new AppError('state_conflict', { message: 'This file was confirmed already.' });
  }
  const currency = toCurrencyCode(row.currency);
  const amountMinor = BigInt(row.total_minor);
  const limits = limitsOrRefuse(deps.config.limits, currency);
  await precheckMoneyOut(deps, {
    userId: session.userId,
    kind: 'transfer',
    amountMinor,
    currency,
    limits,
    feeMinor: 0n,
  });
  const count = row.line_count;
  return {
    row,
    toConfirm: {
      amountMinor,
      currency,
      payee: `a file of ${count} ${count === 1 ? 'payment' : 'payments'}`,
      payeeKey: `bulk:${row.id}`,
    },
  };
}

/** A file that passed its checks and its step-up code, ready to confirm. */
export type BulkConfirmation = CheckedFile & { proof: StepUpProof };

/**
 * What the confirm checks before its transaction: the file's and the sender's checks,
 * then the step-up code for its total (a wrong code uses up a try, which must outlive the
 * refusal, so it is checked outside the transaction).
 */
export async function prepareBulkConfirmation(
  deps: BulkDeps,
  session: SessionContext,
  bulkPaymentId: string,
  stepUpCode: string | undefined,
): Promise<BulkConfirmation> {
  const checked = await precheckBulkPayment(deps, session, bulkPaymentId);
  const proof = await checkStepUp(
    deps,
    session.userId,
    'bulk_payment',
    stepUpCode,
    checked.toConfirm,
  );
  return { ...checked, proof };
}

/**
 * Confirms a checked file in the caller's transaction (the route's idempotent one): the
 * total is counted against today's Quick Pay limit (money_out_lock, as one payment of
 * that total), the code is spent, and the file is marked for paying. The lines are paid
 * afterwards by the bulk payer (payer.ts); a line that is refused is taken out of the
 * day's count again.
 */
export async function confirmBulkPayment(
  deps: BulkDeps,
  tx: Queryable,
  session: SessionContext,
  { row, toConfirm, proof }: BulkConfirmation,
): Promise<BulkPayment> {
  const currency = toConfirm.currency;
  const sender = await lockMoneyOut(tx, {
    userId: session.userId,
    kind: 'transfer',
    amountMinor: toConfirm.amountMinor,
    currency,
    limits: limitsOrRefuse(deps.config.limits, currency),
  });
  if (sender.walletId !== row.wallet_id) throw new AppError('not_found');
  await spendStepUp(tx, proof);
  const paying = await markPaying(tx, session.userId, row.id);
  if (!paying) {
    throw new AppError('state_conflict', { message: 'This file was confirmed already.' });
  }
  // Read in the transaction: the day's count includes this file's total only here.
  return withAllowance({ config: deps.config, db: tx }, paying);
}

/** How many lines one query of the result reads: a 10,000-line file is ten of them. */
const resultPageLines = 1_000;

/**
 * The result file: every line with what became of it (paid, refused with the reason, or
 * still pending), written as it is read so that a large file is never held whole. Cells
 * are escaped by csvRow: a reference typed as a formula stays text in a spreadsheet. The
 * columns and statuses are the upload's own names, which programs read; the reasons are
 * for the person, in `language` (a freeze's reason stays in the words staff typed).
 */
export async function* bulkResultCsv(
  deps: BulkDeps,
  userId: string,
  bulkPaymentId: string,
  language: Language,
): AsyncGenerator<string> {
  const row = await ownBulkPayment(deps, userId, bulkPaymentId);
  const currency = toCurrencyCode(row.currency);
  yield utf8ByteOrderMark +
    csvRow(['line', 'recipient', 'amount', 'currency', 'reference', 'status', 'reason']);
  let afterLine = 0;
  for (;;) {
    const page = await resultLines(deps.db, row.id, afterLine, resultPageLines);
    for (const line of page) {
      yield csvRow([
        String(line.line_number),
        line.recipient,
        toDecimalString(BigInt(line.amount_minor), currency),
        currency,
        line.reference,
        line.status,
        line.refusal_reason ? translateText(language, line.refusal_reason) : '',
      ]);
    }
    const last = page.at(-1);
    if (!last || page.length < resultPageLines) return;
    afterLine = last.line_number;
  }
}
