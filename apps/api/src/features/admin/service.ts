import type { CustomerDetail, CustomerList, TransactionPage } from '@coffer/contracts/admin';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { minorUnits } from '@coffer/contracts/money';
import type { Config } from '../../config.ts';
import { refuseOwnAccount, requireCustomer, walletIdOf } from '../../customers/customers.ts';
import { freezeUser, setUserLevel, unfreezeUser } from '../../customers/queries.ts';
import type { Database } from '../../db/client.ts';
import type { Ledger } from '../../ledger/ledger.ts';
import type { StaffAction } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { publishEvent } from '../../platform/events.ts';
import { outstandingPrincipalOfUser } from '../loans/queries.ts';
import { walletLines } from '../wallet/queries.ts';
import { describeLine } from '../wallet/service.ts';
import { countUsers, listCustomers, type PendingGrantRow, pendingRoleGrantOf } from './queries.ts';

export type AdminDeps = { db: Database; ledger: Ledger; config: Config };

export function toPendingRoleGrant(row: PendingGrantRow): CustomerDetail['pendingRoleGrant'] {
  return {
    id: row.id,
    role: row.role,
    reason: row.reason,
    requestedBy: { id: row.requested_by_user_id, username: row.requested_by_username },
    createdAt: row.created_at.toISOString(),
  };
}

export async function customerList(
  deps: AdminDeps,
  query: { search?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<CustomerList> {
  // Both at once on PostgreSQL: the count is a sum of 16 counter rows (ADR 022), one round trip.
  const [rows, totalUsers] = await Promise.all([
    listCustomers(deps.db, { ...query, limit: query.limit + 1 }),
    countUsers(deps.db),
  ]);
  const hasMore = rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  return {
    totalUsers,
    items: page.map((row) => ({
      id: row.id,
      username: row.username,
      legalName: row.legal_name,
      email: row.email,
      role: row.role,
      level: row.level,
      isFrozen: row.is_frozen,
      closedAt: row.closed_at?.toISOString() ?? null,
      kycStatus: row.kyc_status,
      balance:
        row.currency && row.balance_minor !== null
          ? { amountMinor: minorUnits(row.balance_minor), currency: row.currency }
          : null,
    })),
    nextCursor: hasMore ? (page.at(-1)?.id ?? null) : null,
  };
}

/**
 * A customer's ledger lines for staff, newest first, described as the customer sees them
 * (a Quick Pay names the other customer, masked), with the ledger's own memo beside.
 */
export async function customerTransactions(
  deps: AdminDeps,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<TransactionPage> {
  const walletId = await walletIdOf(deps, userId);
  if (!walletId) throw new AppError('not_found');
  const rows = await walletLines(deps.db, {
    wallet: { id: walletId, ownerUserId: userId },
    beforeLineId: page.cursor === undefined ? null : BigInt(page.cursor),
    limit: page.limit + 1,
  });
  const hasMore = rows.length > page.limit;
  const items = hasMore ? rows.slice(0, page.limit) : rows;
  return {
    items: items.map((row) => ({
      lineId: row.line_id.toString(),
      entryId: row.entry_id,
      kind: row.kind,
      memo: row.memo,
      description: describeLine(row),
      amountMinor: minorUnits(row.amount_minor),
      currency: row.currency,
      createdAt: row.created_at.toISOString(),
    })),
    nextCursor: hasMore ? (items.at(-1)?.line_id.toString() ?? null) : null,
  };
}

function fourEyesFiguresOf(deps: AdminDeps, currency: string) {
  const limits = deps.config.limits.limitsFor(toCurrencyCode(currency));
  return {
    fourEyesThresholdMinor: limits ? minorUnits(limits.fourEyesThresholdMinor) : null,
    fourEyesDailyTotalMinor: limits ? minorUnits(limits.fourEyesDailyTotalMinor) : null,
  };
}

export async function customerDetail(deps: AdminDeps, userId: string): Promise<CustomerDetail> {
  const user = await requireCustomer(deps, userId);
  const walletId = await walletIdOf(deps, userId);
  const balance = walletId ? await deps.ledger.balance(walletId) : null;
  const loanBalanceMinor = balance ? await outstandingPrincipalOfUser(deps.db, userId) : 0n;
  const grant = await pendingRoleGrantOf(deps.db, userId);
  return {
    id: user.id,
    username: user.username,
    legalName: user.legal_name,
    email: user.email,
    isEmailVerified: user.email_verified_at !== null,
    phone: user.phone,
    country: user.country,
    role: user.role,
    level: user.level,
    isFrozen: user.frozen_at !== null,
    frozenReason: user.frozen_reason,
    closedAt: user.closed_at?.toISOString() ?? null,
    hasTotp: user.totp_secret_encrypted !== null,
    createdAt: user.created_at.toISOString(),
    termsAcceptance:
      user.terms_version !== null && user.terms_accepted_at !== null
        ? { version: user.terms_version, acceptedAt: user.terms_accepted_at.toISOString() }
        : null,
    pendingRoleGrant: grant ? toPendingRoleGrant(grant) : null,
    wallet:
      balance && user.wallet_number
        ? {
            accountNumber: user.wallet_number,
            currency: balance.currency,
            balanceMinor: minorUnits(balance.balanceMinor),
            heldMinor: minorUnits(balance.heldMinor),
            availableMinor: minorUnits(balance.availableMinor),
            loanBalanceMinor: minorUnits(loanBalanceMinor),
            ...fourEyesFiguresOf(deps, balance.currency),
          }
        : null,
  };
}

/** Freezing stops sending, withdrawing and paying bills; the customer sees the reason. */
export async function setFrozen(
  deps: AdminDeps,
  userId: string,
  isFrozen: boolean,
  action: StaffAction,
): Promise<CustomerDetail> {
  refuseOwnAccount(action, userId);
  await requireCustomer(deps, userId);
  await deps.db.transaction(async (tx) => {
    const isChanged = isFrozen
      ? await freezeUser(tx, userId, { reason: action.reason, byUserId: action.staff.userId })
      : await unfreezeUser(tx, userId);
    if (!isChanged) throw new AppError('state_conflict');
    await recordAudit(tx, {
      action: isFrozen ? 'account_frozen' : 'account_unfrozen',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: { isFrozen: !isFrozen },
      after: { isFrozen },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await publishEvent(tx, { userId, topics: ['customer'] });
  });
  return customerDetail(deps, userId);
}

export async function setLevel(
  deps: AdminDeps,
  userId: string,
  level: number,
  action: StaffAction,
) {
  const user = await requireCustomer(deps, userId);
  if (user.level === level) throw new AppError('state_conflict');
  await deps.db.transaction(async (tx) => {
    await setUserLevel(tx, userId, level);
    await recordAudit(tx, {
      action: 'level_changed',
      actorUserId: action.staff.userId,
      subjectUserId: userId,
      before: { level: user.level },
      after: { level },
      reason: action.reason,
      ipAddress: action.ipAddress,
    });
    await publishEvent(tx, { userId, topics: ['customer'] });
  });
  return customerDetail(deps, userId);
}
