import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { addMonths, annuitySchedule, smallerMinor, utcDate } from '@coffer/contracts/loan-schedule';
import {
  formatRateBp,
  type Instalment,
  type Loan,
  type LoanApplicationBody,
  type LoanOverview,
  type LoanTerms,
  loanLevelMin,
  loanMessages,
} from '@coffer/contracts/loans';
import {
  AmountRefusedError,
  formatMoney,
  minorUnits,
  parsePositiveAmount,
} from '@coffer/contracts/money';
import type { ApprovalCallbacks, Approvals } from '../../approvals/approvals.ts';
import { isApprovalNeeded } from '../../approvals/rules.ts';
import type { Config } from '../../config.ts';
import { findUserById } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { AccountId, Ledger } from '../../ledger/ledger.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import { walletUnlessFrozen } from '../../money-out/money-out.ts';
import { type StepUpProof, spendStepUp } from '../../money-out/step-up-spend.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { newId } from '../../platform/ids.ts';
import { notify } from '../../platform/notifications.ts';
import { isApplicationWithinEligibility, refuseLoanAboveEligibility } from './eligibility.ts';
import {
  type EligibilityRow,
  findEligibility,
  findLoan,
  type InstalmentRow,
  insertLoan,
  instalmentsOf,
  type LoanRow,
  loansOfUser,
  loansToCollect,
  lockEligibility,
  outstandingPrincipalOfUser,
  pendingLoans,
  type RepaymentRow,
  recordDecision,
  recordDisbursement,
  recordDisbursementRequest,
  recordRepayment,
  recordShortNotice,
  repaymentsOf,
  replaceInstalmentsFrom,
  saveEligibility,
  setAutoRepay,
} from './queries.ts';
import {
  type InstalmentState,
  isSettled,
  type LoanTermsOfRecord,
  planRepayment,
  positionOf,
} from './repayment-plan.ts';

export type LoanDeps = { db: Database; ledger: Ledger; config: Config };

const listLengthMax = 200;
const collectionBatchMax = 500;

function termsFor(config: Config, currency: string): LoanTerms | null {
  return config.loanTerms.get(currency) ?? null;
}

function instalmentStates(rows: InstalmentRow[]): InstalmentState[] {
  return rows.map((row) => ({
    number: row.number,
    dueOn: row.due_on,
    principalMinor: row.principal_minor,
    interestMinor: row.interest_minor,
    principalPaidMinor: row.principal_paid_minor,
    interestPaidMinor: row.interest_paid_minor,
  }));
}

function termsOfRecord(loan: LoanRow): LoanTermsOfRecord {
  if (loan.instalment_minor === null || loan.disbursed_on === null) {
    throw new AppError('loan_state');
  }
  return {
    annualRateBp: loan.annual_rate_bp,
    instalmentMinor: loan.instalment_minor,
    disbursedOn: loan.disbursed_on,
  };
}

function instalmentStatus(line: InstalmentState, today: string): Instalment['status'] {
  if (isSettled(line)) return 'paid';
  if (line.dueOn < today) return 'overdue';
  return line.dueOn === today ? 'due' : 'upcoming';
}

function toLoan(
  loan: LoanRow,
  instalmentRows: InstalmentRow[],
  repaymentRows: RepaymentRow[],
  today: string,
): Loan {
  const instalments = instalmentStates(instalmentRows);
  const isDisbursed = loan.status === 'disbursed';
  const position = isDisbursed ? positionOf(termsOfRecord(loan), instalments, today) : null;
  const shown = instalments.map((line) => ({ ...line, status: instalmentStatus(line, today) }));
  return {
    id: loan.id,
    userId: loan.user_id,
    username: loan.username,
    currency: loan.currency,
    amountMinor: minorUnits(loan.amount_minor),
    monthlySalaryMinor: minorUnits(loan.monthly_salary_minor),
    months: loan.months,
    annualRateBp: loan.annual_rate_bp,
    fullName: loan.full_name,
    phone: loan.phone,
    address: loan.address,
    status: loan.status,
    decisionReason: loan.decision_reason,
    decidedAt: loan.decided_at?.toISOString() ?? null,
    createdAt: loan.created_at.toISOString(),
    disbursedAt: loan.disbursed_at?.toISOString() ?? null,
    disbursementRequestedBy:
      loan.disbursement_requested_by_user_id && loan.disbursement_requested_by_username
        ? {
            id: loan.disbursement_requested_by_user_id,
            username: loan.disbursement_requested_by_username,
          }
        : null,
    instalmentMinor: loan.instalment_minor === null ? null : minorUnits(loan.instalment_minor),
    outstandingPrincipalMinor: minorUnits(loan.outstanding_principal_minor),
    payoffMinor: minorUnits(position?.payoffMinor ?? 0n),
    dueNowMinor: minorUnits(position?.dueNowMinor ?? 0n),
    isAutoRepayOn: loan.is_auto_repay_on,
    isOverdue: isDisbursed && shown.some((line) => line.status === 'overdue'),
    instalments: shown.map((line) => ({
      number: line.number,
      dueOn: line.dueOn,
      principalMinor: minorUnits(line.principalMinor),
      interestMinor: minorUnits(line.interestMinor),
      paidMinor: minorUnits(line.principalPaidMinor + line.interestPaidMinor),
      status: line.status,
    })),
    repayments: repaymentRows.map((row) => ({
      id: row.id,
      amountMinor: minorUnits(row.amount_minor),
      principalMinor: minorUnits(row.principal_minor),
      interestMinor: minorUnits(row.interest_minor),
      isAutomatic: row.is_automatic,
      createdAt: row.created_at.toISOString(),
    })),
  };
}

async function withSchedules(db: Queryable, rows: LoanRow[], now: Date): Promise<Loan[]> {
  const ids = rows.map((row) => row.id);
  // One after the other: inside a transaction both share one connection.
  const instalments = await instalmentsOf(db, ids);
  const repayments = await repaymentsOf(db, ids);
  const today = utcDate(now);
  return rows.map((row) =>
    toLoan(
      row,
      instalments.filter((line) => line.loan_id === row.id),
      repayments.filter((repayment) => repayment.loan_id === row.id),
      today,
    ),
  );
}

/** One loan as the API shows it; pass the transaction when inside one. */
async function loanById(db: Queryable, loanId: string, now = new Date()): Promise<Loan> {
  const row = await findLoan(db, loanId);
  if (!row) throw new AppError('not_found');
  const [loan] = await withSchedules(db, [row], now);
  if (!loan) throw new AppError('not_found');
  return loan;
}

function eligibilityOf(row: EligibilityRow | null): LoanOverview['eligibility'] {
  return row
    ? {
        amountMinor: minorUnits(row.amount_minor),
        reason: row.reason,
        setAt: row.set_at.toISOString(),
      }
    : null;
}

/** The /loan page, and the staff's view of one customer's loans: the same facts. */
export async function loanOverview(deps: LoanDeps, userId: string): Promise<LoanOverview> {
  const user = await findUserById(deps.db, userId);
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!user || !wallet) throw new AppError('not_found');
  const terms = termsFor(deps.config, wallet.currency);
  return {
    level: user.level,
    currency: wallet.currency,
    terms: terms && {
      currency: terms.currency,
      annualRateBp: terms.annualRateBp,
      amountMinMinor: minorUnits(terms.amountMinMinor),
      amountMaxMinor: minorUnits(terms.amountMaxMinor),
      monthsMax: terms.monthsMax,
    },
    eligibility: eligibilityOf(await findEligibility(deps.db, userId)),
    loanBalanceMinor: minorUnits(await outstandingPrincipalOfUser(deps.db, userId)),
    loans: await withSchedules(
      deps.db,
      await loansOfUser(deps.db, userId, listLengthMax),
      new Date(),
    ),
  };
}

/** A typed amount in the wallet's currency, refused beside its own field. */
function amountOrRefuse(text: string, currency: CurrencyCode, field: 'amount' | 'monthlySalary') {
  try {
    return parsePositiveAmount(text, currency, 'quickPay');
  } catch (error) {
    if (!(error instanceof AmountRefusedError)) throw error;
    const message = field === 'amount' ? loanMessages.invalidAmount : loanMessages.invalidSalary;
    throw new AppError('validation_failed', { message, fields: { [field]: message } });
  }
}

function refuseAmount(message: string): never {
  throw new AppError('loan_amount_refused', { message, fields: { amount: message } });
}

/** PRODUCT.md "Loans": level 2, terms for the currency, within eligibility, one pending. */
export async function applyForLoan(
  deps: LoanDeps,
  userId: string,
  body: LoanApplicationBody,
): Promise<Loan> {
  const user = await findUserById(deps.db, userId);
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!user || !wallet) throw new AppError('not_found');
  if (user.level < loanLevelMin) {
    throw new AppError('level_too_low', { message: loanMessages.restrictedBody });
  }
  const terms = termsFor(deps.config, wallet.currency);
  if (!terms) throw new AppError('loans_not_offered');
  const monthlySalaryMinor = amountOrRefuse(body.monthlySalary, wallet.currency, 'monthlySalary');
  const amountMinor = amountOrRefuse(body.amount, wallet.currency, 'amount');
  if (body.months > terms.monthsMax) {
    const message = `Choose at most ${terms.monthsMax} months`;
    throw new AppError('validation_failed', { message, fields: { months: message } });
  }
  const money = (minor: bigint) => formatMoney({ amountMinor: minor, currency: wallet.currency });
  if (amountMinor < terms.amountMinMinor || amountMinor > terms.amountMaxMinor) {
    refuseAmount(
      `Loans in ${wallet.currency} are from ${money(terms.amountMinMinor)} to ${money(terms.amountMaxMinor)}`,
    );
  }
  const loanId = newId();
  await deps.db.transaction(async (tx) => {
    // The eligibility caps what the customer borrows in all (eligibility.ts), checked
    // with the new row in place and under the lock approval also takes.
    const eligibility = await lockEligibility(tx, userId);
    if (!eligibility) refuseAmount(loanMessages.aboveEligibility);
    const isInserted = await insertLoan(tx, {
      id: loanId,
      userId,
      currency: wallet.currency,
      amountMinor,
      monthlySalaryMinor,
      months: body.months,
      annualRateBp: terms.annualRateBp,
      fullName: body.fullName,
      phone: body.phone,
      address: body.address,
    });
    if (!isInserted) throw new AppError('loan_pending_exists');
    if (!(await isApplicationWithinEligibility(tx, eligibility))) {
      refuseAmount(loanMessages.aboveEligibility);
    }
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanById(deps.db, loanId);
}

async function customerOrRefuse(deps: LoanDeps, userId: string, action: StaffAction) {
  const subject = await findUserById(deps.db, userId);
  if (!subject) throw new AppError('not_found');
  // Staff never act on their own money, and staff accounts have none to lend against.
  if (action.staff.userId === userId) throw new AppError('own_account');
  if (subject.role !== 'customer') throw new AppError('staff_wallet');
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!wallet) throw new AppError('not_found');
  return { subject, wallet };
}

/** Staff set what a customer may borrow, with a reason the customer sees. */
export async function setEligibility(
  deps: LoanDeps,
  userId: string,
  body: { amount: string },
  action: StaffAction,
): Promise<LoanOverview> {
  const { wallet } = await customerOrRefuse(deps, userId, action);
  const amountMinor = amountOrRefuse(body.amount, wallet.currency, 'amount');
  const before = await findEligibility(deps.db, userId);
  await deps.db.transaction(async (tx) => {
    await saveEligibility(tx, {
      userId,
      amountMinor,
      currency: wallet.currency,
      reason: action.reason,
      setByUserId: action.staff.userId,
    });
    await recordAudit(tx, {
      action: 'loan_eligibility_set',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: before ? { amountMinor: before.amount_minor.toString() } : null,
      after: { amountMinor: amountMinor.toString(), currency: wallet.currency },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await notify(
      tx,
      {
        userId,
        kind: 'loan_eligibility_set',
        text: `Your approved loan eligibility is now ${formatMoney({ amountMinor, currency: wallet.currency })}: ${action.reason}`,
        link: '/loan',
      },
      deps.config,
    );
    await publishEvent(tx, { userId, topics: ['loans'] });
  });
  return loanOverview(deps, userId);
}

/**
 * The eligibility lock of the loan's customer (eligibility.ts), taken before the loan row
 * so that every path holding both takes them in the same order.
 */
async function lockCustomersEligibility(
  tx: Queryable,
  loanId: string,
): Promise<EligibilityRow | null> {
  const loan = await findLoan(tx, loanId);
  if (!loan) throw new AppError('not_found');
  return lockEligibility(tx, loan.user_id);
}

async function lockLoan(tx: Queryable, loanId: string): Promise<LoanRow> {
  const loan = await findLoan(tx, loanId, { isLocked: true });
  if (!loan) throw new AppError('not_found');
  return loan;
}

/** Approve or decline a pending application; of two staff deciding at once, one wins. */
export async function decideLoan(
  deps: LoanDeps,
  loanId: string,
  decision: 'approve' | 'decline',
  action: StaffAction,
): Promise<Loan> {
  await deps.db.transaction(async (tx) => {
    const eligibility = decision === 'approve' ? await lockCustomersEligibility(tx, loanId) : null;
    const loan = await lockLoan(tx, loanId);
    if (loan.user_id === action.staff.userId) throw new AppError('own_account');
    if (loan.status !== 'pending') throw new AppError('already_decided');
    if (decision === 'approve') await refuseLoanAboveEligibility(tx, eligibility, loan);
    const status = decision === 'approve' ? 'approved' : 'declined';
    await recordDecision(tx, loanId, {
      status,
      reason: action.reason || null,
      decidedByUserId: action.staff.userId,
    });
    await recordAudit(tx, {
      action: decision === 'approve' ? 'loan_approved' : 'loan_declined',
      actorUserId: action.staff.userId,
      subjectUserId: loan.user_id,
      before: { status: 'pending' },
      after: { status, amountMinor: loan.amount_minor.toString(), currency: loan.currency },
      reason: action.reason || null,
      ipAddress: action.ipAddress,
    });
    const amount = formatMoney({
      amountMinor: loan.amount_minor,
      currency: toCurrencyCode(loan.currency),
    });
    await notify(
      tx,
      {
        userId: loan.user_id,
        kind: 'loan_decided',
        text:
          decision === 'approve'
            ? `Your loan request of ${amount} was approved. It will be paid into your wallet shortly.`
            : `Your loan request of ${amount} was declined: ${action.reason}`,
        link: '/loan',
      },
      deps.config,
    );
    await publishEvent(tx, { userId: loan.user_id, topics: ['loans'] });
  });
  return loanById(deps.db, loanId);
}

/**
 * "Disburse loan": only an approved loan. Under the approval rules of staff postings
 * (approvals/: `isApprovalNeeded`, who may approve) it pays out at once or waits for a
 * second admin, who then disburses it. Paying out fixes the schedule.
 */
export type DisbursementTarget = { loanId: string; receivableId: AccountId };

/** Looks up what a disbursement needs before its transaction opens. */
export async function disbursementTarget(
  deps: LoanDeps,
  loanId: string,
  action: StaffAction,
): Promise<DisbursementTarget> {
  const found = await findLoan(deps.db, loanId);
  if (!found) throw new AppError('not_found');
  await customerOrRefuse(deps, found.user_id, action);
  const currency = toCurrencyCode(found.currency);
  return { loanId, receivableId: await deps.ledger.systemAccount('loan_receivable', currency) };
}

export async function disburseLoan(
  deps: LoanDeps & { approvals: Approvals },
  tx: Queryable,
  target: DisbursementTarget,
  action: StaffAction,
  now = new Date(),
): Promise<Loan> {
  const { loanId, receivableId } = target;
  const eligibility = await lockCustomersEligibility(tx, loanId);
  const loan = await lockLoan(tx, loanId);
  const currency = toCurrencyCode(loan.currency);
  if (loan.status !== 'approved') {
    throw new AppError('loan_state', { message: 'Only an approved loan can be disbursed.' });
  }
  // Both the first admin's request and the second admin's payout look again.
  await refuseLoanAboveEligibility(tx, eligibility, loan);
  const requestedBy = loan.disbursement_requested_by_user_id;
  if (requestedBy === null) {
    const needsSecondAdmin = await isApprovalNeeded(
      deps,
      tx,
      action.staff,
      currency,
      loan.amount_minor,
    );
    if (needsSecondAdmin) {
      await recordDisbursementRequest(tx, loanId, action.staff.userId);
      await recordLoanAudit(tx, loan, 'loan_disbursement_requested', action);
      await publishEvent(tx, { userId: loan.user_id, topics: ['loans'] });
      return loanById(tx, loanId, now);
    }
    await payOut(deps, tx, loan, receivableId, action, now);
  } else {
    // The second admin: approvals/ checks she may approve, then calls `payOut` back.
    await deps.approvals.decide('loan_disbursement', tx, {
      id: loanId,
      decision: 'approve',
      action,
      context: { receivableId, now },
    });
  }
  return loanById(tx, loanId, now);
}

/** A disbursement waiting for approval is decided through approvals/, which calls back here. */
export function disbursementApprovals(deps: LoanDeps): ApprovalCallbacks<'loan_disbursement'> {
  return {
    lockPending: async (tx, loanId) => {
      const loan = await lockLoan(tx, loanId);
      const requestedBy = loan.disbursement_requested_by_user_id;
      if (loan.status !== 'approved' || requestedBy === null) throw new AppError('already_decided');
      return { makerUserId: requestedBy, subjectUserId: loan.user_id };
    },
    onDecided: async (tx, { id, action, context }) => {
      const loan = await lockLoan(tx, id);
      await payOut(deps, tx, loan, context.receivableId, action, context.now);
    },
  };
}

async function recordLoanAudit(
  tx: Queryable,
  loan: LoanRow,
  auditAction: 'loan_disbursement_requested' | 'loan_disbursed',
  action: StaffAction,
) {
  await recordAudit(tx, {
    action: auditAction,
    actorUserId: action.staff.userId,
    subjectUserId: loan.user_id,
    after: { loanId: loan.id, amountMinor: loan.amount_minor.toString(), currency: loan.currency },
    reason: action.reason || null,
    ipAddress: action.ipAddress,
  });
}

async function payOut(
  deps: LoanDeps,
  tx: Queryable,
  loan: LoanRow,
  receivableId: AccountId,
  action: StaffAction,
  now: Date,
) {
  const wallet = await findCustomerWallet(tx, loan.user_id);
  if (!wallet) throw new AppError('not_found');
  const { entryId } = await deps.ledger.post(
    {
      kind: 'loan_disbursement',
      memo: `Loan disbursement (${loan.months} months at ${formatRateBp(loan.annual_rate_bp)})`,
      actorUserId: action.staff.userId,
      lines: [
        { accountId: receivableId, amountMinor: -loan.amount_minor },
        { accountId: wallet.id, amountMinor: loan.amount_minor },
      ],
    },
    tx,
  );
  const disbursedOn = utcDate(now);
  const schedule = annuitySchedule(loan.amount_minor, loan.annual_rate_bp, loan.months);
  await replaceInstalmentsFrom(
    tx,
    loan.id,
    1,
    schedule.lines.map((line) => ({
      ...line,
      dueOn: addMonths(disbursedOn, line.number),
      principalPaidMinor: 0n,
      interestPaidMinor: 0n,
    })),
  );
  await recordDisbursement(tx, {
    loanId: loan.id,
    disbursedByUserId: action.staff.userId,
    disbursedOn,
    entryId,
    instalmentMinor: schedule.instalmentMinor,
    principalMinor: loan.amount_minor,
  });
  await recordLoanAudit(tx, loan, 'loan_disbursed', action);
  await notify(
    tx,
    {
      userId: loan.user_id,
      kind: 'loan_disbursed',
      text: `Your loan of ${formatMoney({ amountMinor: loan.amount_minor, currency: wallet.currency })} was paid into your wallet.`,
      link: '/loan',
    },
    deps.config,
  );
  await publishEvent(tx, { userId: loan.user_id, topics: ['wallet', 'loans'] });
}

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
): Promise<RepaymentSource & { needsStepUp: boolean }> {
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
  return { userId, loanId, amountMinor, accounts: await loanAccounts(deps, currency), needsStepUp };
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

/** Oldest first: applications waiting for a decision. */
export async function loanQueue(deps: LoanDeps): Promise<Loan[]> {
  return withSchedules(deps.db, await pendingLoans(deps.db, listLengthMax), new Date());
}
