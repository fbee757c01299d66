import type {
  AccountClosure,
  CloseAccountBody,
  ClosedAccount,
  ClosureBlocker,
} from '@coffer/contracts/account-closure';
import { toCurrencyCode } from '@coffer/contracts/currencies';
import { formatMoney, minorUnits } from '@coffer/contracts/money';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { enqueueEmail } from '../../platform/mail.ts';
import { revokeUserSessions } from '../../platform/sessions.ts';
import { type AuthDeps, requireUser } from '../auth/service.ts';
import { reauthenticate } from '../profile/service.ts';
import { setScheduleStatus, skipOpenOccurrences } from '../scheduled-payments/queries.ts';
import {
  closeUser,
  lockLiveSchedules,
  lockUser,
  markWalletsClosed,
  type OpenItemsRow,
  openItemsOf,
  type WalletStateRow,
  walletStatesOf,
  withdrawalPayeesOf,
} from './queries.ts';

const withdrawLink = '/transfer?tab=withdraw';

function blocker(
  kind: ClosureBlocker['kind'],
  message: string,
  link: string | null = null,
  linkLabel: string | null = null,
): ClosureBlocker {
  return { kind, message, link, linkLabel };
}

/** Each open item as the customer reads it, with the way forward (ADR 050). */
function blockersOf(items: OpenItemsRow, wallets: WalletStateRow[]): ClosureBlocker[] {
  const blockers: ClosureBlocker[] = [];
  if (items.loans_outstanding > 0) {
    blockers.push(
      blocker(
        'loan_outstanding',
        'You have a loan to repay. Repay it in full first.',
        '/loan',
        'Repay the loan',
      ),
    );
  }
  if (items.loans_pending > 0) {
    blockers.push(
      blocker(
        'loan_outstanding',
        'Your loan application is waiting for a decision or to be paid out. Wait for it to be decided, then repay any loan paid out.',
        '/loan',
        'See the loan',
      ),
    );
  }
  if (items.cards_open > 0) {
    blockers.push(
      blocker(
        'card_active',
        'You have a virtual card (or a request for one). Cancel it on the Cards page first.',
        '/cards',
        'Cancel the card',
      ),
    );
  }
  if (items.payouts_pending > 0) {
    blockers.push(
      blocker(
        'payout_pending',
        'A withdrawal is waiting to be sent. Wait until it is sent (or refused and returned).',
        withdrawLink,
        'See your withdrawals',
      ),
    );
  }
  if (items.disputes_open > 0) {
    blockers.push(
      blocker(
        'dispute_open',
        'A dispute is still open. Wait until it is decided.',
        '/dispute',
        'See your disputes',
      ),
    );
  }
  if (items.money_requests_pending > 0) {
    blockers.push(
      blocker(
        'money_request_pending',
        'A deposit or adjustment to your account is waiting for approval by staff. Wait until it is decided.',
      ),
    );
  }
  if (items.bulk_payments_paying > 0) {
    blockers.push(
      blocker(
        'bulk_payment_paying',
        'A bulk payment is still being paid. Wait until it is done.',
        '/bulk-payments',
        'See bulk payments',
      ),
    );
  }
  for (const wallet of wallets) blockers.push(...moneyBlockersOf(items, wallet));
  return blockers;
}

/**
 * What one wallet's money keeps open: money held, a balance above zero (withdrawn from the
 * main wallet; another currency's is exchanged into it first, ADR 052) or below it.
 */
function moneyBlockersOf(items: OpenItemsRow, wallet: WalletStateRow): ClosureBlocker[] {
  const blockers: ClosureBlocker[] = [];
  const money = (amountMinor: bigint) =>
    formatMoney({ amountMinor, currency: toCurrencyCode(wallet.currency) });
  const availableMinor = wallet.balance_minor - wallet.held_minor;
  if (wallet.held_minor > 0n && items.payouts_pending === 0) {
    blockers.push(
      blocker(
        'money_held',
        `${money(wallet.held_minor)} is held for a card payment or withdrawal that is not finished. Wait until it is settled or released.`,
      ),
    );
  }
  if (availableMinor > 0n && wallet.is_main) {
    blockers.push(
      blocker(
        'balance_positive',
        `Your balance is ${money(availableMinor)}. Withdraw it to an account of yours (a saved payee or a new one), or send it to another customer, so that it is zero.`,
        withdrawLink,
        'Withdraw the rest',
      ),
    );
  }
  if (availableMinor > 0n && !wallet.is_main) {
    blockers.push(
      blocker(
        'balance_positive',
        `Your ${wallet.currency} wallet holds ${money(availableMinor)}. Exchange it into your main wallet, then withdraw it.`,
        '/exchange',
        'Exchange it',
      ),
    );
  }
  if (wallet.balance_minor < 0n) {
    blockers.push(
      blocker(
        'balance_negative',
        `Your ${wallet.currency} balance is ${money(wallet.balance_minor)}. Add money to bring it to zero first.`,
        '/dashboard/deposit',
        'Add money',
      ),
    );
  }
  return blockers;
}

async function requireWallets(db: Queryable, userId: string, isLocked: boolean) {
  const wallets = await walletStatesOf(db, userId, { isLocked });
  const main = wallets.find((wallet) => wallet.is_main);
  // Staff have no wallet and no customer routes; a customer always has a main one.
  if (!main) throw new AppError('not_found');
  return { wallets, main };
}

/** "Close my account": whether it can be closed now and, if not, every reason with what to do. */
export async function accountClosureOf(deps: AuthDeps, userId: string): Promise<AccountClosure> {
  const { wallets, main } = await requireWallets(deps.db, userId, false);
  const items = await openItemsOf(deps.db, userId);
  const blockers = blockersOf(items, wallets);
  return {
    isClosable: blockers.length === 0,
    balance: { amountMinor: minorUnits(main.balance_minor), currency: main.currency },
    otherBalances: wallets
      .filter((wallet) => !wallet.is_main)
      .map((wallet) => ({
        amountMinor: minorUnits(wallet.balance_minor),
        currency: wallet.currency,
      })),
    blockers,
    scheduledPaymentsToCancel: items.schedules_live,
    withdrawalPayees: await withdrawalPayeesOf(deps.db, userId),
  };
}

function closureEmail(to: string, username: string, institutionName: string) {
  return {
    to,
    subject: `Your ${institutionName} account is closed`,
    text: [
      `Hello ${username},`,
      '',
      `Your ${institutionName} account is closed, as you asked. You are signed out everywhere, you can no longer sign in, and this is the last email we send you.`,
      '',
      'We keep your transactions and the records the law requires for the period the institution must keep them; your other personal data is removed after that period.',
      '',
      'If you did not close your account, contact the institution now.',
    ].join('\n'),
  };
}

/**
 * Closes the customer's account after the password again: everything is checked again in
 * one transaction under the wallet's row lock, which every payment to the wallet takes
 * too, so a payment either lands before (and the closure is refused) or is refused after.
 * Schedules are cancelled, every session ends, the confirmation is the last email.
 */
export async function closeAccount(
  deps: AuthDeps,
  userId: string,
  body: CloseAccountBody,
  ipAddress: string,
): Promise<ClosedAccount> {
  const user = await requireUser(deps.db, userId);
  await reauthenticate(user, body.currentPassword);
  const closed = await deps.db.transaction(async (tx) => {
    const locked = await lockUser(tx, userId);
    if (!locked || locked.closed_at) throw new AppError('account_closed');
    const { wallets } = await requireWallets(tx, userId, true);
    const blockers = blockersOf(await openItemsOf(tx, userId), wallets);
    if (blockers.length > 0) throw new AppError('account_not_closable');
    const scheduleIds = await lockLiveSchedules(tx, userId);
    for (const scheduleId of scheduleIds) {
      await setScheduleStatus(tx, scheduleId, 'cancelled', null);
      await skipOpenOccurrences(tx, scheduleId, 'The account was closed.');
    }
    await markWalletsClosed(tx, {
      walletIds: wallets.map((wallet) => wallet.wallet_id),
      email: locked.email,
    });
    // The last email: queued before `closed_at` is set, after which none is (platform/mail.ts).
    await enqueueEmail(tx, closureEmail(locked.email, user.username, deps.site.institutionName));
    const closedAt = await closeUser(tx, userId);
    await revokeUserSessions(tx, userId);
    await recordAudit(tx, {
      action: 'account_closed',
      actorUserId: userId,
      subjectUserId: userId,
      after: { cancelledScheduledPayments: scheduleIds.length },
      ipAddress,
    });
    return { closedAt, cancelledScheduledPayments: scheduleIds.length };
  });
  deps.mailer.kick();
  return {
    closedAt: closed.closedAt.toISOString(),
    cancelledScheduledPayments: closed.cancelledScheduledPayments,
  };
}
