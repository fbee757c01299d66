import { setTimeout as sleep } from 'node:timers/promises';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { frozenAccountMessage } from '@coffer/contracts/limits';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/client.ts';
import { fromSqlError } from '../../db/sql-errors.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { uncountMoneyOut } from '../../money-out/money-out.ts';
import type { EventHub } from '../../platform/events.ts';
import { notify } from '../../platform/notifications.ts';
import { type Poller, startPoller } from '../../platform/poller.ts';

/**
 * The bulk payer (ADR 044): pays the lines of confirmed files in batches, each batch one
 * transaction whose lines are posted by one statement (db/functions/bulk_pay_lines.sql,
 * through the ledger's ledger_post_many: an entry a line, each wallet's balance row updated
 * once a batch), so that a line the sender's balance no longer covers is marked refused
 * with its reason and the others go on. A line is
 * paid at most once: its ledger entry carries the idempotency key `bulk:<file>:<line>`,
 * and its row is claimed `FOR UPDATE SKIP LOCKED`, so two payers take different lines and
 * a payer that dies mid-batch leaves its lines pending (its transaction rolled back) for
 * the next one.
 */

export type PayerDeps = {
  db: Database;
  events: Pick<EventHub, 'publishCommitted'>;
  config: { publicUrl: string };
};

/**
 * Lines paid in one transaction. A batch holds the sender's wallet and its recipients'
 * until it commits, so its size follows the time batches take (`nextBatchLines`): about
 * `targetMs` a batch, the first at `first` lines, never fewer than `min` nor more than
 * `max`. A quiet server pays the largest batches, whose fixed costs (the claim, the
 * round trips, the commit) a batch shares among more lines; a loaded one smaller batches,
 * which hold the wallets no longer than the target.
 */
export const bulkBatchLines = { first: 200, min: 50, max: 1000, targetMs: 200 };

type ClaimedLine = {
  bulk_payment_id: string;
  line_number: number;
  recipient_user_id: string;
  recipient_wallet_id: AccountId;
  amount_minor: bigint;
  reference: string;
  user_id: string;
  wallet_id: AccountId;
  currency: string;
  confirmed_at: Date;
};

/**
 * How far past the file's first pending line a claim looks: room for a few payers at once
 * (each skips the lines another holds), and few enough rows that a claim reads only its
 * window, never the whole file (migration 0048's index of pending lines finds the first).
 */
const claimWindowBatches = 4;

/**
 * The oldest confirmed file's next pending lines that no other payer holds. The file and
 * its first pending line are found first (init plans), so that the lines are read by an
 * index range of one window in every plan: joined, with the statistics of a file just
 * uploaded, the planner read every pending line of the file to keep a batch.
 */
async function claimLines(tx: Queryable, batchLines: number): Promise<ClaimedLine[]> {
  const claimed = await tx.query<ClaimedLine>(
    `WITH file AS (SELECT id FROM bulk_payments WHERE status = 'paying'
                    ORDER BY confirmed_at, id LIMIT 1),
          first AS (SELECT min(p.line_number) AS line_number FROM bulk_payment_lines p
                     WHERE p.bulk_payment_id = (SELECT id FROM file) AND p.status = 'pending')
     SELECT l.bulk_payment_id, l.line_number, l.recipient_user_id, l.recipient_wallet_id,
            l.amount_minor, l.reference, b.user_id, b.wallet_id, b.currency::text AS currency,
            b.confirmed_at
       FROM bulk_payment_lines l
       JOIN bulk_payments b ON b.id = l.bulk_payment_id
      WHERE l.bulk_payment_id = (SELECT id FROM file) AND l.status = 'pending'
        AND l.line_number >= (SELECT line_number FROM first)
        AND l.line_number < (SELECT line_number FROM first) + $2
      ORDER BY l.line_number LIMIT $1
        FOR UPDATE OF l SKIP LOCKED`,
    [batchLines, batchLines * claimWindowBatches],
  );
  return claimed.rows;
}

/** The sender's standing at the batch's start: a file stops paying once they are frozen. */
async function frozenReasonOf(tx: Queryable, userId: string): Promise<string | null> {
  const found = await tx.query<{ frozen_at: Date | null; frozen_reason: string | null }>(
    'SELECT frozen_at, frozen_reason FROM users WHERE id = $1',
    [userId],
  );
  const user = found.rows[0];
  if (!user?.frozen_at) return null;
  return frozenAccountMessage(user.frozen_reason ?? 'no reason was given');
}

/**
 * Locks every wallet the batch moves money between, in id order, before the first line:
 * taken line by line, the sender's wallet and each recipient's would be locked in no one
 * order, and a second payer or a Quick Pay between the same wallets could deadlock with us.
 */
async function lockWallets(tx: Queryable, walletIds: AccountId[]): Promise<void> {
  await tx.query(
    `SELECT 1 FROM account_balances WHERE account_id = ANY($1::uuid[])
      ORDER BY account_id, bucket FOR UPDATE`,
    [[...new Set(walletIds)]],
  );
}

type LineOutcome = {
  line_number: number;
  is_paid: boolean;
  amount_minor: bigint;
  recipient_user_id: string;
};

/** Pays the lines in one statement (db/functions/bulk_pay_lines.sql), each line on its own. */
async function payLines(
  tx: Queryable,
  bulkPaymentId: string,
  lineNumbers: number[],
): Promise<LineOutcome[]> {
  try {
    const paid = await tx.query<LineOutcome>(
      'SELECT * FROM bulk_pay_lines(p_bulk_payment_id => $1, p_line_numbers => $2::int[])',
      [bulkPaymentId, lineNumbers],
    );
    return paid.rows;
  } catch (error) {
    throw fromSqlError(error);
  }
}

/** Marks every line refused with one reason: the sender was frozen after confirming. */
async function refuseLines(
  tx: Queryable,
  bulkPaymentId: string,
  lines: ClaimedLine[],
  reason: string,
): Promise<LineOutcome[]> {
  await tx.query(
    `UPDATE bulk_payment_lines SET status = 'refused', refusal_reason = $3
      WHERE bulk_payment_id = $1 AND line_number = ANY($2::int[])`,
    [bulkPaymentId, lines.map((line) => line.line_number), reason],
  );
  return lines.map((line) => ({
    line_number: line.line_number,
    is_paid: false,
    amount_minor: line.amount_minor,
    recipient_user_id: line.recipient_user_id,
  }));
}

const recipientClosedReason = 'The recipient can no longer be paid.';

/**
 * The recipients' wallets closed since the upload (ADR 050), read under the wallets' locks:
 * their lines are refused with a reason, where the ledger would refuse them and end the batch.
 */
async function closedWalletsOf(tx: Queryable, walletIds: AccountId[]): Promise<Set<string>> {
  const found = await tx.query<{ account_id: string }>(
    `SELECT account_id FROM account_balances
      WHERE account_id = ANY($1::uuid[]) AND bucket = 0 AND is_closed`,
    [walletIds],
  );
  return new Set(found.rows.map((row) => row.account_id));
}

/** Refuses the lines to closed accounts and pays the others. */
async function payOpenRecipients(
  tx: Queryable,
  bulkPaymentId: string,
  lines: ClaimedLine[],
): Promise<LineOutcome[]> {
  const closed = await closedWalletsOf(
    tx,
    lines.map((line) => line.recipient_wallet_id),
  );
  const toRefuse = lines.filter((line) => closed.has(line.recipient_wallet_id));
  const toPay = lines.filter((line) => !closed.has(line.recipient_wallet_id));
  return [
    ...(toRefuse.length > 0
      ? await refuseLines(tx, bulkPaymentId, toRefuse, recipientClosedReason)
      : []),
    ...(toPay.length > 0
      ? await payLines(
          tx,
          bulkPaymentId,
          toPay.map((line) => line.line_number),
        )
      : []),
  ];
}

/** Marks the file done when no line of it is pending, and tells its sender how it went. */
async function finishIfPaid(
  tx: Queryable,
  deps: PayerDeps,
  bulkPaymentId: string,
): Promise<boolean> {
  const finished = await tx.query<{ user_id: string; paid_count: number; refused_count: number }>(
    `UPDATE bulk_payments b SET status = 'done', finished_at = now()
      WHERE b.id = $1 AND b.status = 'paying'
        AND NOT EXISTS (SELECT 1 FROM bulk_payment_lines l
                         WHERE l.bulk_payment_id = b.id AND l.status = 'pending')
      RETURNING b.user_id, b.paid_count, b.refused_count`,
    [bulkPaymentId],
  );
  const file = finished.rows[0];
  if (!file) return false;
  const refused = file.refused_count > 0 ? `, ${file.refused_count} refused` : '';
  await notify(
    tx,
    {
      userId: file.user_id,
      kind: 'money_sent',
      text: `Your bulk payment file is done: ${file.paid_count} paid${refused}. The result is on the Bulk payments page.`,
      link: '/bulk-payments',
    },
    deps.config,
  );
  return true;
}

/**
 * Options a test uses: a smaller batch, and a crash after the batch's lines were paid
 * but before its transaction commits (`beforeCommit` throwing), as a payer dying would.
 */
export type BatchOptions = {
  batchLines?: number;
  beforeCommit?: (lineNumbers: number[]) => void;
};

/** Adds the batch to the file's counts and gives back the day's count its refusals spent. */
async function countOutcomes(
  tx: Queryable,
  file: ClaimedLine,
  outcomes: LineOutcome[],
): Promise<void> {
  const paid = outcomes.filter((outcome) => outcome.is_paid);
  const sumOf = (some: LineOutcome[]) =>
    some.reduce((sum, outcome) => sum + BigInt(outcome.amount_minor), 0n);
  const refusedMinor = sumOf(outcomes.filter((outcome) => !outcome.is_paid));
  await tx.query(
    `UPDATE bulk_payments SET paid_count = paid_count + $2, refused_count = refused_count + $3,
            paid_minor = paid_minor + $4 WHERE id = $1`,
    [file.bulk_payment_id, paid.length, outcomes.length - paid.length, sumOf(paid).toString()],
  );
  if (refusedMinor > 0n) {
    await uncountMoneyOut(tx, {
      userId: file.user_id,
      kind: 'transfer',
      madeAt: file.confirmed_at,
      amountMinor: refusedMinor,
      currency: toCurrencyCode(file.currency),
    });
  }
}

/**
 * Pays the next batch of lines of the oldest confirmed file, in one transaction; answers
 * how many lines it settled (0: nothing was left to claim). The day's count of the file's
 * total (taken at confirming) gives back what its refused lines did not spend.
 */
export async function payNextBatch(deps: PayerDeps, options: BatchOptions = {}): Promise<number> {
  const touchedUserIds = new Set<string>();
  const settled = await deps.db.transaction(async (tx) => {
    const lines = await claimLines(tx, options.batchLines ?? bulkBatchLines.first);
    const first = lines[0];
    if (!first) {
      await finishStranded(tx, deps);
      return 0;
    }
    const fileId = first.bulk_payment_id;
    await lockWallets(tx, [first.wallet_id, ...lines.map((line) => line.recipient_wallet_id)]);
    const frozenReason = await frozenReasonOf(tx, first.user_id);
    const lineNumbers = lines.map((line) => line.line_number);
    const outcomes = frozenReason
      ? await refuseLines(tx, fileId, lines, frozenReason)
      : await payOpenRecipients(tx, fileId, lines);
    await countOutcomes(tx, first, outcomes);
    await finishIfPaid(tx, deps, fileId);
    options.beforeCommit?.(lineNumbers);
    touchedUserIds.add(first.user_id);
    for (const outcome of outcomes) {
      if (outcome.is_paid) touchedUserIds.add(outcome.recipient_user_id);
    }
    return outcomes.length;
  });
  deps.events.publishCommitted(
    [...touchedUserIds].map((userId) => ({ userId, topics: ['wallet', 'transfers'] })),
  );
  return settled;
}

/**
 * A file whose last lines two payers settled at once may be left `paying` with nothing
 * pending (each saw the other's lines still pending): the next payer finishes it.
 */
async function finishStranded(tx: Queryable, deps: PayerDeps): Promise<void> {
  const stranded = await tx.query<{ id: string }>(
    `SELECT b.id FROM bulk_payments b WHERE b.status = 'paying'
        AND NOT EXISTS (SELECT 1 FROM bulk_payment_lines l
                         WHERE l.bulk_payment_id = b.id AND l.status = 'pending')
      ORDER BY b.confirmed_at LIMIT 10`,
  );
  for (const { id } of stranded.rows) await finishIfPaid(tx, deps, id);
}

/**
 * The size of the batch after one of `asked` lines that settled `settled` in `tookMs`: as
 * many lines as fit in the target at the batch's time a line, but at most twice and at
 * least half the last size (on a loaded machine one batch stalled by the scheduler took
 * the size to the least in one step), within the bounds.
 */
export function nextBatchLines(asked: number, settled: number, tookMs: number): number {
  // A short batch (a file's last lines) says little about a full one, unless it was slow.
  if (settled === 0 || (settled < asked && tookMs <= bulkBatchLines.targetMs)) return asked;
  const fitting = Math.floor((bulkBatchLines.targetMs * settled) / Math.max(tookMs, 1));
  const stepped = Math.min(Math.max(fitting, Math.floor(asked / 2)), asked * 2);
  return Math.min(bulkBatchLines.max, Math.max(bulkBatchLines.min, stepped));
}

/** A payer's batch size, carried from one batch to the next. */
export type BatchSize = { lines: number };

export function firstBatchSize(): BatchSize {
  return { lines: bulkBatchLines.first };
}

/** Pays one batch of `size.lines` and fits `size` to the time it took. */
export async function payNextSizedBatch(
  deps: PayerDeps,
  size: BatchSize,
): Promise<{ settled: number; tookMs: number }> {
  const startedMs = performance.now();
  const settled = await payNextBatch(deps, { batchLines: size.lines });
  const tookMs = performance.now() - startedMs;
  size.lines = nextBatchLines(size.lines, settled, tookMs);
  return { settled, tookMs };
}

/**
 * After each batch the payer rests this share of the batch's own time: a file's batches
 * run back to back would keep a database core busy for as long as it pays, and other
 * customers' Quick Pays would queue behind them (bench/README.md, bench:bulk). A file
 * pays at about half speed; 10,000 lines still take seconds.
 */
export const bulkRestShareOfBatch = 1;

/** Pays one sized batch, then rests (`bulkRestShareOfBatch`); answers how many it settled. */
export async function payNextBatchAndRest(deps: PayerDeps, size: BatchSize): Promise<number> {
  const { settled, tookMs } = await payNextSizedBatch(deps, size);
  if (settled > 0) await sleep(tookMs * bulkRestShareOfBatch);
  return settled;
}

/** Looks for confirmed files this often even without a kick (after a crash or restart). */
const bulkPollIntervalMs = 5_000;

export type BulkPayer = Poller;

/**
 * Runs the payer in this process: at a kick (a file was just confirmed) and every
 * `bulkPollIntervalMs`, batch after batch until nothing is left. Several instances may
 * run it at once: the batches' row locks keep them on different lines.
 */
export function startBulkPayer(
  deps: PayerDeps,
  log: FastifyBaseLogger,
  options: { isOn: boolean },
): BulkPayer {
  if (!options.isOn) return { kick() {}, stop: async () => {} };
  const size = firstBatchSize();
  return startPoller({
    intervalMs: bulkPollIntervalMs,
    log,
    failureMessage: 'bulk payer failed; it tries again at its next poll',
    runBatch: async () => (await payNextBatchAndRest(deps, size)) > 0,
  });
}
