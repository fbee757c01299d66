import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { smallerMinor, utcDate } from '@coffer/contracts/loan-schedule';
import type { Loan } from '@coffer/contracts/loans';
import { formatMoney } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import type { AccountId } from '../../ledger/ledger.ts';
import { walletUnlessFrozen } from '../../money-out/money-out.ts';
import type { PaymentToConfirm } from '../../money-out/step-up-prechecks.ts';
import { type StepUpProof, spendStepUp } from '../../money-out/step-up-spend.ts';
import { AppError } from '../../platform/app-error.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import {
  findLoan,
  instalmentsOf,
  type LoanRow,
  loansToCollect,
  recordRepayment,
  recordShortNotice,
  replaceInstalmentsFrom,
  setAutoRepay,
} from './queries.ts';
import { type InstalmentState, planRepayment, positionOf } from './repayment-plan.ts';
import {
  amountOrRefuse,
  instalmentStates,
  type LoanDeps,
  loanById,
  refuseAmount,
  termsOfRecord,
} from './shared.ts';

const collectionBatchMax = 500;

/** The system accounts a repayment credits: principal back to receivables, interest to income. */
export type LoanAccounts = { receivableId: AccountId; incomeId: AccountId };

/** Looked up before a transaction opens (PGlite runs one at a time). */
async function loanAccounts(deps: LoanDeps, currency: CurrencyCode): Promise<LoanAccounts> {
  return {
    receivableId: await deps.ledger.systemAccount('loan_receivable', currency),
    incomeId: await deps.ledger.systemAccount('interest_income', currency),
  };
}

export type RepaymentSource = {
  userId: string;
  loanId: string;
  amountMinor: bigint;
  accounts: LoanAccounts;
};

async function ownDisbursedLoan(db: Queryable, userId: string, loanId: string, isLocked: boolean) {
  const loan = await findLoan(db, loanId, { isLocked });
  // Another customer's loan does not exist for this one.
  if (!loan || loan.user_id !== userId) throw new AppError('not_found');
  if (loan.status !== 'disbursed') {
    throw new AppError('loan_state', { message: 'This loan has nothing left to repay.' });
  }
  return loan;
}

function payoffOrRefuse(
  loan: LoanRow,
  schedule: InstalmentState[],
  amountMinor: bigint,
  today: string,
) {
  const { payoffMinor } = positionOf(termsOfRecord(loan), schedule, today);
  if (amountMinor > payoffMinor) {
    refuseAmount(
      `You can repay at most the payoff amount, ${formatMoney({ amountMinor: payoffMinor, currency: toCurrencyCode(loan.currency) })}`,
    );
  }
}

/**
 * Everything that can refuse a repayment without a step-up code: the loan is the
 * customer's and disbursed, the amount is above zero and within the payoff, the wallet is
 * not frozen and holds the amount. Says whether a code is needed (the Quick Pay threshold).
 */
export async function precheckRepayment(
  deps: LoanDeps,
  userId: string,
  loanId: string,
  amountText: string,
): Promise<RepaymentSource & { needsStepUp: boolean; toConfirm: PaymentToConfirm }> {
  const loan = await ownDisbursedLoan(deps.db, userId, loanId, false);
  const currency = toCurrencyCode(loan.currency);
  const amountMinor = amountOrRefuse(amountText, currency, 'amount');
  const schedule = instalmentStates(await instalmentsOf(deps.db, [loanId]));
  payoffOrRefuse(loan, schedule, amountMinor, utcDate(new Date()));
  const { walletId } = await walletUnlessFrozen(deps.db, userId, { isLocked: false });
  const balance = await deps.ledger.balance(walletId);
  if (balance.availableMinor < amountMinor) throw new AppError('insufficient_funds');
  const limits = deps.config.limits.limitsFor(currency);
  // A currency without limits has no threshold: every repayment in it asks for a code.
  const needsStepUp = !limits || amountMinor >= limits.stepUpThresholdMinor;
  const accounts = await loanAccounts(deps, currency);
  // What a step-up code confirms: this amount, to this loan, named as the customer knows it.
  const loanAmount = formatMoney(
    { amountMinor: loan.amount_minor, currency },
    { currencyDisplay: 'code' },
  );
  const toConfirm = {
    amountMinor,
    currency,
    payee: `your loan of ${loanAmount}`,
    payeeKey: `loan:${loanId}`,
  };
  return { userId, loanId, amountMinor, accounts, needsStepUp, toConfirm };
}

async function applyRepayment(
  deps: LoanDeps,
  tx: Queryable,
  loan: LoanRow,
  repayment: {
    amountMinor: bigint;
    walletId: AccountId;
    accounts: LoanAccounts;
    isAutomatic: boolean;
    now: Date;
  },
): Promise<void> {
  const currency = toCurrencyCode(loan.currency);
  const today = utcDate(repayment.now);
  const schedule = instalmentStates(await instalmentsOf(tx, [loan.id]));
  payoffOrRefuse(loan, schedule, repayment.amountMinor, today);
  const plan = planRepayment(termsOfRecord(loan), schedule, repayment.amountMinor, today);
  const lines = [
    { accountId: repayment.walletId, amountMinor: -repayment.amountMinor },
    { accountId: repayment.accounts.receivableId, amountMinor: plan.principalMinor },
    { accountId: repayment.accounts.incomeId, amountMinor: plan.interestMinor },
  ].filter((line) => line.amountMinor !== 0n);
  const { entryId } = await deps.ledger.post(
    {
      kind: 'loan_repayment',
      memo: `Loan repayment: ${formatMoney({ amountMinor: plan.principalMinor, currency })} principal, ${formatMoney({ amountMinor: plan.interestMinor, currency })} interest${repayment.isAutomatic ? ' (automatic)' : ''}`,
      actorUserId: repayment.isAutomatic ? null : loan.user_id,
      lines,
    },
    tx,
  );
  await replaceInstalmentsFrom(tx, loan.id, plan.fromNumber, plan.instalments);
  await recordRepayment(tx, {
    id: newId(),
    loanId: loan.id,
    entryId,
    principalMinor: plan.principalMinor,
    interestMinor: plan.interestMinor,
    isAutomatic: repayment.isAutomatic,
    outstandingPrincipalMinor: plan.outstandingPrincipalMinor,
    isRepaid: plan.isRepaid,
  });
  const amount = formatMoney({ amountMinor: repayment.amountMinor, currency });
  await notify(
    tx,
    {
      userId: loan.user_id,
      kind: repayment.isAutomatic ? 'loan_collected' : 'loan_repaid',
      text: plan.isRepaid
        ? `${amount} was paid towards your loan. Your loan is fully repaid.`
        : `${amount} was ${repayment.isAutomatic ? 'collected from your wallet' : 'paid'} towards your loan.`,
      link: '/loan',
    },
    deps.config,
  );
  await publishEvent(tx, { userId: loan.user_id, topics: ['wallet', 'loans'] });
}

/**
 * A customer's repayment from the wallet, in the caller's transaction: the loan row and
 * then the wallet are locked, so an automatic collection waits and then sees it.
 */
export async function repayLoan(
  deps: LoanDeps,
  tx: Queryable,
  source: RepaymentSource & { proof: StepUpProof | null },
  now = new Date(),
): Promise<Loan> {
  const loan = await ownDisbursedLoan(tx, source.userId, source.loanId, true);
  const { walletId } = await walletUnlessFrozen(tx, source.userId, { isLocked: true });
  if (source.proof) await spendStepUp(tx, source.proof);
  await applyRepayment(deps, tx, loan, {
    amountMinor: source.amountMinor,
    walletId,
    accounts: source.accounts,
    isAutomatic: false,
    now,
  });
  return loanById(tx, source.loanId, now);
}

export async function switchAutoRepay(
  deps: LoanDeps,
  userId: string,
  loanId: string,
  isAutoRepayOn: boolean,
): Promise<Loan> {
  await deps.db.transaction(async (tx) => {
    await ownDisbursedLoan(tx, userId, loanId, true);
    await setAutoRepay(tx, loanId, isAutoRepayOn);
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanById(deps.db, loanId);
}

/**
 * Collects one loan's due instalments from the wallet: all of it, or what the wallet has
 * (telling the customer, once a day, what is still owed). A frozen wallet is not touched:
 * its instalments stay overdue, with no fee.
 */
async function collectLoan(deps: LoanDeps, loanId: string, now: Date): Promise<void> {
  const today = utcDate(now);
  const found = await findLoan(deps.db, loanId);
  if (!found) return;
  const accounts = await loanAccounts(deps, toCurrencyCode(found.currency));
  await deps.db.transaction(async (tx) => {
    const loan = await findLoan(tx, loanId, { isLocked: true });
    if (loan?.status !== 'disbursed' || !loan.is_auto_repay_on) return;
    const schedule = instalmentStates(await instalmentsOf(tx, [loanId]));
    const { dueNowMinor } = positionOf(termsOfRecord(loan), schedule, today);
    if (dueNowMinor === 0n) return;
    let walletId: AccountId;
    try {
      ({ walletId } = await walletUnlessFrozen(tx, loan.user_id, { isLocked: true }));
    } catch (error) {
      if (error instanceof AppError && error.code === 'account_frozen') return;
      throw error;
    }
    const { availableMinor } = await deps.ledger.balance(walletId, tx);
    const collectedMinor = smallerMinor(availableMinor, dueNowMinor);
    if (collectedMinor > 0n) {
      await applyRepayment(deps, tx, loan, {
        amountMinor: collectedMinor,
        walletId,
        accounts,
        isAutomatic: true,
        now,
      });
    }
    if (collectedMinor < dueNowMinor && loan.short_notice_on !== today) {
      const currency = toCurrencyCode(loan.currency);
      const money = (minor: bigint) => formatMoney({ amountMinor: minor, currency });
      await recordShortNotice(tx, loanId, today);
      await notify(
        tx,
        {
          userId: loan.user_id,
          kind: 'loan_collection_short',
          text: `Your loan instalment of ${money(dueNowMinor)} is due. We collected ${money(collectedMinor)}, all your wallet had; ${money(dueNowMinor - collectedMinor)} is still owed. Add money to your wallet or repay on the loan page. No late fee is charged.`,
          link: '/loan',
        },
        deps.config,
      );
      await publishEvent(tx, { userId: loan.user_id, topics: ['loans'] });
    }
  });
}

/** The scheduled collection: every loan with automatic repayment and something due. */
export async function collectDueInstalments(deps: LoanDeps, now: Date): Promise<void> {
  for (const loanId of await loansToCollect(deps.db, utcDate(now), collectionBatchMax)) {
    await collectLoan(deps, loanId, now);
  }
}

export const loanCollectionIntervalMs = 60 * 60 * 1000;
