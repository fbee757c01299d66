import type { Role } from '@coffer/contracts/auth';
import { findCountry } from '@coffer/contracts/countries';
import { type CurrencyCode, toCurrencyCode } from '@coffer/contracts/currencies';
import { parseAmount } from '@coffer/contracts/money';
import { type AccountId, type Ledger, type Posting, postBackDated } from '../../ledger/ledger.ts';
import { newId } from '../../platform/ids.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { insertUser, isEmailTaken } from '../auth/queries.ts';
import { type BooksDeps, closeDueDays } from '../books/service.ts';

type DemoUser = {
  username: string;
  email: string;
  password: string;
  role: Role;
  country: string;
  phone: string;
  /**
   * A customer's legal name, so staff pages, statements and cards show one in the sandbox
   * (issue #31 item 7); real customers get theirs only from an approved verification.
   */
  legalName?: string;
  /** Ledger history to create for a customer: deposits in, bill payments out. */
  history?: { kind: 'deposit' | 'bill_payment'; amount: string; memo: string }[];
  /** Wallets in other currencies besides the country's (issue #33), to show them. */
  otherWallets?: string[];
};

// Sandbox only: published, fixed credentials so anyone trying Coffer can sign in as each role.
export const demoUsers: DemoUser[] = [
  {
    username: 'Demo Admin',
    email: 'admin@coffer.test',
    password: 'Sandbox-Admin-2026!',
    role: 'admin',
    country: 'US',
    phone: '+14155550100',
  },
  // A second admin, so that what Demo Admin prepares over the approval limits can be approved.
  {
    username: 'Demo Checker',
    email: 'checker@coffer.test',
    password: 'Sandbox-Checker-2026!',
    role: 'admin',
    country: 'US',
    phone: '+14155550103',
  },
  {
    username: 'Demo Support',
    email: 'support@coffer.test',
    password: 'Sandbox-Support-2026!',
    role: 'support',
    country: 'US',
    phone: '+14155550101',
  },
  {
    username: 'Alice Morgan',
    legalName: 'Alice Jane Morgan',
    email: 'alice@coffer.test',
    password: 'Sandbox-Customer-2026!',
    role: 'customer',
    country: 'US',
    phone: '+14155550102',
    history: [
      { kind: 'deposit', amount: '1250.00', memo: 'Salary deposit' },
      { kind: 'deposit', amount: '300.00', memo: 'Cash deposit at branch' },
      { kind: 'bill_payment', amount: '45.20', memo: 'Electricity bill' },
    ],
  },
  {
    username: 'Bruno Keller',
    legalName: 'Bruno Maximilian Keller',
    email: 'bruno@coffer.test',
    password: 'Sandbox-Customer-2026!',
    role: 'customer',
    country: 'DE',
    phone: '+4930901820',
    otherWallets: ['JPY'],
    history: [
      { kind: 'deposit', amount: '800.00', memo: 'Transfer from savings' },
      { kind: 'bill_payment', amount: '29.99', memo: 'Internet bill' },
    ],
  },
  {
    username: 'Yuki Tanaka',
    legalName: '田中 由紀',
    email: 'yuki@coffer.test',
    password: 'Sandbox-Customer-2026!',
    role: 'customer',
    country: 'JP',
    phone: '+81312345678',
    history: [
      { kind: 'deposit', amount: '150000', memo: 'Salary deposit' },
      { kind: 'bill_payment', amount: '3200', memo: 'Phone bill' },
    ],
  },
];

type SeedDeps = BooksDeps & {
  config: BooksDeps['config'] & { isSandbox: boolean };
  /** The terms the demo customers are seeded as having accepted (app.terms). */
  terms?: { version: string } | null;
};
const dayMs = 24 * 60 * 60 * 1000;

/** A customer's history as postings: deposits from settlement, bills to bill clearing. */
async function historyPostings(
  ledger: Ledger,
  walletId: AccountId,
  currency: CurrencyCode,
  history: NonNullable<DemoUser['history']>,
): Promise<Posting[]> {
  const settlement = await ledger.systemAccount('settlement', currency);
  const billClearing = await ledger.systemAccount('bill_clearing', currency);
  return history.map((item) => {
    const amountMinor = parseAmount(item.amount, currency);
    const [from, to] = item.kind === 'deposit' ? [settlement, walletId] : [walletId, billClearing];
    return {
      kind: item.kind,
      memo: item.memo,
      lines: [
        { accountId: from, amountMinor: -amountMinor },
        { accountId: to, amountMinor },
      ],
    };
  });
}

/**
 * Posts the demo history. Into a ledger with no entries yet (a fresh sandbox) each
 * customer's items fall on the days before today, the last yesterday, and those days are
 * closed at once by the books' own close, so /admin/books shows closed days from the
 * start. Any other time (a demo user added to a sandbox already in use) they are posted now.
 */
async function postHistory(deps: SeedDeps, histories: Posting[][]): Promise<void> {
  const hasEntries = await deps.db.query<{ has_entries: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM journal_entries) AS has_entries',
  );
  if (hasEntries.rows[0]?.has_entries) {
    for (const posting of histories.flat()) await deps.ledger.post(posting);
    return;
  }
  const now = Date.now();
  const backDated = histories.flatMap((postings) =>
    postings.map((posting, index) => ({
      posting,
      postedAt: new Date(now - (postings.length - index) * dayMs),
    })),
  );
  await postBackDated(deps.db, deps.config, backDated);
  await closeDueDays(deps, new Date(now));
}

/**
 * Gives the demo customers their legal names, also in a sandbox seeded before there were
 * any; a name a verification recorded since is left alone.
 */
async function nameDemoCustomers(deps: SeedDeps): Promise<void> {
  for (const demo of demoUsers) {
    if (demo.legalName === undefined) continue;
    await deps.db.query(
      'UPDATE users SET legal_name = $2 WHERE email = $1 AND legal_name IS NULL',
      [demo.email, demo.legalName],
    );
  }
}

/** Creates the demo users once (an existing address is left alone); returns them for printing. */
export async function seedSandbox(deps: SeedDeps): Promise<DemoUser[]> {
  const { db, ledger } = deps;
  const histories: Posting[][] = [];
  for (const demo of demoUsers) {
    if (await isEmailTaken(db, demo.email)) continue;
    const country = findCountry(demo.country);
    if (!country) throw new Error(`demo country ${demo.country} is unknown`);
    const userId = newId();
    const passwordHash = await hashPassword(demo.password);
    const currency = toCurrencyCode(country.currency);
    const wallet = await db.transaction(async (tx) => {
      await insertUser(tx, {
        id: userId,
        username: demo.username,
        email: demo.email,
        phone: demo.phone,
        country: country.code,
        role: demo.role,
        passwordHash,
        isEmailVerified: true,
        // Demo customers open the app at once, as a customer who accepted them at sign-up.
        acceptedTermsVersion: demo.role === 'customer' ? (deps.terms?.version ?? null) : null,
      });
      if (demo.role !== 'customer') return null;
      const main = await ledger.openWallet(userId, currency, tx);
      for (const other of demo.otherWallets ?? []) {
        await ledger.openWallet(userId, toCurrencyCode(other), tx, false);
      }
      return main;
    });
    if (wallet && demo.history) {
      histories.push(await historyPostings(ledger, wallet.id, currency, demo.history));
    }
  }
  if (histories.length > 0) await postHistory(deps, histories);
  await nameDemoCustomers(deps);
  return demoUsers;
}

export function describeDemoUsers(users: DemoUser[]): string {
  const rows = users.map(
    (user) => `  ${user.role.padEnd(9)} ${user.email.padEnd(22)} ${user.password}`,
  );
  return ['Sandbox users (sandbox mode only; change nothing real with them):', ...rows].join('\n');
}
