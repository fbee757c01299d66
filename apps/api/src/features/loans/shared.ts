import type { CurrencyCode } from '@coffer/contracts/currencies';
import { utcDate } from '@coffer/contracts/loan-schedule';
import { type Instalment, type Loan, type LoanTerms, loanMessages } from '@coffer/contracts/loans';
import { AmountRefusedError, minorUnits, parsePositiveAmount } from '@coffer/contracts/money';
import type { Config } from '../../config.ts';
import { findUserById } from '../../customers/queries.ts';
import type { Database, Queryable } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import { findCustomerWallet } from '../../ledger/wallets.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import {
  type EligibilityRow,
  findLoan,
  type InstalmentRow,
  instalmentsOf,
  type LoanRow,
  lockEligibility,
  type RepaymentRow,
  repaymentsOf,
} from './queries.ts';
import {
  type InstalmentState,
  isSettled,
  type LoanTermsOfRecord,
  positionOf,
} from './repayment-plan.ts';

export type LoanDeps = { db: Database; ledger: Ledger; config: Config };

export const listLengthMax = 200;

export function termsFor(config: Config, currency: string): LoanTerms | null {
  return config.loanTerms.get(currency) ?? null;
}

export function instalmentStates(rows: InstalmentRow[]): InstalmentState[] {
  return rows.map((row) => ({
    number: row.number,
    dueOn: row.due_on,
    principalMinor: row.principal_minor,
    interestMinor: row.interest_minor,
    principalPaidMinor: row.principal_paid_minor,
    interestPaidMinor: row.interest_paid_minor,
  }));
}

export function termsOfRecord(loan: LoanRow): LoanTermsOfRecord {
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

export async function withSchedules(db: Queryable, rows: LoanRow[], now: Date): Promise<Loan[]> {
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
export async function loanById(db: Queryable, loanId: string, now = new Date()): Promise<Loan> {
  const row = await findLoan(db, loanId);
  if (!row) throw new AppError('not_found');
  const [loan] = await withSchedules(db, [row], now);
  if (!loan) throw new AppError('not_found');
  return loan;
}

/** A typed amount in the wallet's currency, refused beside its own field. */
export function amountOrRefuse(
  text: string,
  currency: CurrencyCode,
  field: 'amount' | 'monthlySalary',
) {
  try {
    return parsePositiveAmount(text, currency, 'quickPay');
  } catch (error) {
    if (!(error instanceof AmountRefusedError)) throw error;
    const message = field === 'amount' ? loanMessages.invalidAmount : loanMessages.invalidSalary;
    throw new AppError('validation_failed', { message, fields: { [field]: message } });
  }
}

export function refuseAmount(message: string): never {
  throw new AppError('loan_amount_refused', { message, fields: { amount: message } });
}

export async function customerOrRefuse(deps: LoanDeps, userId: string, action: StaffAction) {
  const subject = await findUserById(deps.db, userId);
  if (!subject) throw new AppError('not_found');
  // Staff never act on their own money, and staff accounts have none to lend against.
  if (action.staff.userId === userId) throw new AppError('own_account');
  if (subject.role !== 'customer') throw new AppError('staff_wallet');
  const wallet = await findCustomerWallet(deps.db, userId);
  if (!wallet) throw new AppError('not_found');
  return { subject, wallet };
}

/**
 * The eligibility lock of the loan's customer (eligibility.ts), taken before the loan row
 * so that every path holding both takes them in the same order.
 */
export async function lockCustomersEligibility(
  tx: Queryable,
  loanId: string,
): Promise<EligibilityRow | null> {
  const loan = await findLoan(tx, loanId);
  if (!loan) throw new AppError('not_found');
  return lockEligibility(tx, loan.user_id);
}

export async function lockLoan(tx: Queryable, loanId: string): Promise<LoanRow> {
  const loan = await findLoan(tx, loanId, { isLocked: true });
  if (!loan) throw new AppError('not_found');
  return loan;
}
