import type { Language } from '@coffer/contracts/languages';
import { entryKindLabels } from '@coffer/contracts/ledger';
import type { Queryable } from '../../db/client.ts';
import type { IbanScheme } from '../../platform/account-iban.ts';
import { csvRow } from '../../platform/csv.ts';
import { translateText, translatorFor } from '../../platform/i18n.ts';
import { notificationTextFor } from '../../platform/notifications.ts';
import type { DocumentStorage } from '../kyc/storage.ts';
import { openStatement, statementAccountOf } from '../statements/service.ts';
import {
  type AccountEventRow,
  bulkPaymentsPage,
  cardPurchasesPage,
  cardsPage,
  disputesPage,
  findProfile,
  identityDocumentsPage,
  instalmentsOf,
  loansPage,
  notificationsPage,
  type PageRequest,
  payeesPage,
  repaymentsPage,
  scheduledPaymentsPage,
  sessionsPage,
  signInEventsPage,
  statementMonths,
  supportMessagesPage,
  termsAcceptancesPage,
  walletsOf,
} from './queries.ts';

/** Rows read per query: a merchant's million lines stream out a page at a time. */
export const exportPageSize = 500;

export type ExportContext = {
  db: Queryable;
  /** Where the identity documents are read from: the KYC feature's own storage. */
  documents: DocumentStorage;
  userId: string;
  config: { timeZone: string; ibanScheme: IbanScheme | null; isSandbox: boolean };
  /** The customer's language (storedLanguage): README.txt's and the CSV's headings. */
  language: Language;
};

/** One file of the zip: its name and its bytes, produced as they are written. */
export type ExportFile = { name: string; content: () => Promise<AsyncIterable<string | Buffer>> };

/**
 * One part of the export, in the order the zip holds them: what README.txt says of it, and
 * its files (most parts are one file; the identity documents are one per document).
 */
export type ExportSection = {
  name: string;
  /** What README.txt says of it, in English (translated as the README is written). */
  text: string;
  files: (context: ExportContext) => AsyncIterable<ExportFile>;
};

/** Money as the export writes it everywhere: exact minor units, as a string, and the currency. */
function money(amountMinor: bigint, currency: string) {
  return { amountMinor: amountMinor.toString(), currency };
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** The pages of a keyset query, until a short page says there are no more. */
async function* keysetPages<Row extends { id: string }>(
  read: (afterId: string | null) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  let afterId: string | null = null;
  for (;;) {
    const rows = await read(afterId);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < exportPageSize || !last) return;
    afterId = last.id;
  }
}

function userPages<Row extends { id: string }>(
  context: ExportContext,
  page: (db: Queryable, request: PageRequest) => Promise<Row[]>,
): AsyncGenerator<Row[]> {
  return keysetPages((afterId) =>
    page(context.db, { userId: context.userId, afterId, limit: exportPageSize }),
  );
}

/** A JSON array written a page at a time, one item a line, never held whole. */
async function* jsonArray<Row>(
  pages: AsyncIterable<Row[]>,
  toItem: (row: Row) => Promise<unknown> | unknown,
  indent = '',
): AsyncGenerator<string> {
  let isFirst = true;
  yield '[';
  for await (const page of pages) {
    let chunk = '';
    for (const row of page) {
      chunk += `${isFirst ? '' : ','}\n${indent}  ${JSON.stringify(await toItem(row))}`;
      isFirst = false;
    }
    yield chunk;
  }
  yield isFirst ? ']' : `\n${indent}]`;
}

/** A JSON object whose fields are streamed arrays (or plain values), in order. */
async function* jsonObject(
  fields: [string, AsyncIterable<string> | unknown][],
): AsyncGenerator<string> {
  yield '{';
  for (const [index, [key, value]] of fields.entries()) {
    yield `${index === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `;
    if (value !== null && typeof value === 'object' && Symbol.asyncIterator in value) {
      yield* value as AsyncIterable<string>;
    } else {
      yield JSON.stringify(value);
    }
  }
  yield '\n}\n';
}

async function* jsonDocument(value: unknown): AsyncGenerator<string> {
  yield `${JSON.stringify(value, null, 2)}\n`;
}

function oneFile(name: string, content: (context: ExportContext) => AsyncIterable<string>) {
  return async function* (context: ExportContext): AsyncGenerator<ExportFile> {
    yield { name, content: async () => content(context) };
  };
}

function eventItem(row: AccountEventRow) {
  return {
    action: row.action,
    at: row.created_at.toISOString(),
    ipAddress: row.ip_address,
    details: row.after,
  };
}

async function* profileJson(context: ExportContext): AsyncGenerator<string> {
  const user = await findProfile(context.db, context.userId);
  if (!user) throw new Error('the export is of a user who no longer exists');
  yield* jsonDocument({
    id: user.id,
    username: user.username,
    legalName: user.legal_name,
    email: user.email,
    emailVerifiedAt: iso(user.email_verified_at),
    phone: user.phone,
    country: user.country,
    timeZone: user.time_zone,
    level: user.level,
    frozenAt: iso(user.frozen_at),
    frozenReason: user.frozen_reason,
    createdAt: user.created_at.toISOString(),
  });
}

async function* walletsJson(context: ExportContext): AsyncGenerator<string> {
  const wallets = await walletsOf(context.db, context.userId);
  yield* jsonDocument(
    wallets.map((wallet) => ({
      accountNumber: wallet.number,
      currency: wallet.currency,
      balance: money(wallet.balance_minor, wallet.currency),
      // Card purchases waiting to settle: part of the balance, not yet spendable.
      held: money(wallet.held_minor, wallet.currency),
      openedAt: wallet.created_at.toISOString(),
    })),
  );
}

/**
 * Every line of one wallet from its first, through the statements' own reader (keyset
 * pages, bounded by the newest line when it opens, each with the balance after it).
 */
async function openAllTransactions(context: ExportContext, walletId: string) {
  const account = await statementAccountOf(context.db, context.userId, context.config, walletId);
  return openStatement(
    context.db,
    { ...account, ownerUserId: context.userId },
    // Every day there is: the statement's bounds are days of the customer's zone.
    { from: '1970-01-01', to: '2999-12-31', label: 'Every transaction' },
  );
}

/** Every line of every wallet of the customer's, wallet after wallet, a page at a time. */
async function* allTransactionPages(context: ExportContext) {
  for (const wallet of await walletsOf(context.db, context.userId)) {
    const source = await openAllTransactions(context, wallet.id);
    const { accountNumber, currency } = source.account;
    for await (const page of source.pages()) {
      yield page.map((line) => ({ ...line, accountNumber, currency }));
    }
  }
}

/**
 * Headings and types in the customer's language; the values stay as a program reads them
 * (minor units, ISO times, the kind's code), as every file of the export is.
 */
async function* transactionsCsv(context: ExportContext): AsyncGenerator<string> {
  const t = translatorFor(context.language);
  yield csvRow([
    t('Wallet'),
    t('Line'),
    t('Time (UTC)'),
    t('Type'),
    t('Kind'),
    t('Description'),
    t('Amount (minor units)'),
    t('Currency'),
    t('Balance after (minor units)'),
  ]);
  for await (const page of allTransactionPages(context)) {
    let chunk = '';
    for (const line of page) {
      chunk += csvRow([
        line.accountNumber,
        line.lineId.toString(),
        line.createdAt.toISOString(),
        translateText(context.language, entryKindLabels[line.kind]),
        line.kind,
        line.description,
        line.amountMinor.toString(),
        line.currency,
        line.balanceAfterMinor.toString(),
      ]);
    }
    yield chunk;
  }
}

async function* transactionsJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(allTransactionPages(context), (line) => ({
    accountNumber: line.accountNumber,
    line: line.lineId.toString(),
    at: line.createdAt.toISOString(),
    kind: line.kind,
    type: entryKindLabels[line.kind],
    description: line.description,
    amount: money(line.amountMinor, line.currency),
    balanceAfter: money(line.balanceAfterMinor, line.currency),
  }));
  yield '\n';
}

async function* statementsJson(context: ExportContext): AsyncGenerator<string> {
  const wallets = [];
  for (const wallet of await walletsOf(context.db, context.userId)) {
    const account = await statementAccountOf(context.db, context.userId, context.config, wallet.id);
    const months = await statementMonths(context.db, {
      accountId: account.accountId,
      timeZone: account.timeZone,
    });
    wallets.push({
      accountNumber: account.accountNumber,
      currency: account.currency,
      timeZone: account.timeZone,
      months: months.map((month) => ({
        month: month.month,
        lineCount: month.line_count,
        moneyIn: money(month.money_in_minor, account.currency),
        moneyOut: money(month.money_out_minor, account.currency),
      })),
    });
  }
  yield* jsonDocument({ wallets });
}

async function* loansJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, loansPage), async (loan) => {
    const repayments = [];
    for await (const page of keysetPages((afterId) =>
      repaymentsPage(context.db, { loanId: loan.id, afterId, limit: exportPageSize }),
    )) {
      for (const repayment of page) {
        repayments.push({
          at: repayment.created_at.toISOString(),
          amount: money(repayment.amount_minor, loan.currency),
          principal: money(repayment.principal_minor, loan.currency),
          interest: money(repayment.interest_minor, loan.currency),
          isAutomatic: repayment.is_automatic,
        });
      }
    }
    const schedule = (await instalmentsOf(context.db, loan.id)).map((instalment) => ({
      number: instalment.number,
      dueOn: instalment.due_on,
      principal: money(instalment.principal_minor, loan.currency),
      interest: money(instalment.interest_minor, loan.currency),
      principalPaid: money(instalment.principal_paid_minor, loan.currency),
      interestPaid: money(instalment.interest_paid_minor, loan.currency),
    }));
    return {
      id: loan.id,
      status: loan.status,
      amount: money(loan.amount_minor, loan.currency),
      months: loan.months,
      annualRateBasisPoints: loan.annual_rate_bp,
      monthlySalary: money(loan.monthly_salary_minor, loan.currency),
      fullName: loan.full_name,
      phone: loan.phone,
      address: loan.address,
      decisionReason: loan.decision_reason,
      decidedAt: iso(loan.decided_at),
      disbursedOn: loan.disbursed_on,
      instalment:
        loan.instalment_minor === null ? null : money(loan.instalment_minor, loan.currency),
      outstandingPrincipal: money(loan.outstanding_principal_minor, loan.currency),
      isAutoRepayOn: loan.is_auto_repay_on,
      appliedAt: loan.created_at.toISOString(),
      schedule,
      repayments,
    };
  });
  yield '\n';
}

async function* cardsJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonObject([
    [
      'cards',
      jsonArray(
        userPages(context, cardsPage),
        (card) => ({
          id: card.id,
          status: card.status,
          // As the cards page shows it; the number and security code are the issuer's only.
          lastFourDigits: card.last_four,
          expiryMonth: card.expiry_month,
          expiryYear: card.expiry_year,
          holderName: card.holder_name,
          fee: money(card.fee_minor, card.currency),
          weeklyLimit: money(card.weekly_limit_minor, card.currency),
          reason: card.reason,
          frozenAt: iso(card.frozen_at),
          requestedAt: card.created_at.toISOString(),
        }),
        '  ',
      ),
    ],
    [
      'purchases',
      jsonArray(
        userPages(context, cardPurchasesPage),
        (purchase) => ({
          id: purchase.id,
          cardId: purchase.card_id,
          merchant: purchase.merchant,
          amount: money(purchase.amount_minor, purchase.currency),
          status: purchase.status,
          declineReason: purchase.decline_reason,
          at: purchase.created_at.toISOString(),
        }),
        '  ',
      ),
    ],
  ]);
}

async function* disputesJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, disputesPage), (dispute) => ({
    reference: dispute.reference,
    amount: money(dispute.amount_minor, dispute.currency),
    recipientAccountNumber: dispute.recipient_account_number,
    problemType: dispute.problem_type,
    description: dispute.description,
    status: dispute.status,
    resolutionNote: dispute.resolution_note,
    filedAt: dispute.created_at.toISOString(),
    updatedAt: dispute.updated_at.toISOString(),
  }));
  yield '\n';
}

async function* payeesJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, payeesPage), (payee) => ({
    nickname: payee.nickname,
    kind: payee.kind,
    target: payee.target,
    savedAt: payee.created_at.toISOString(),
  }));
  yield '\n';
}

async function* scheduledPaymentsJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, scheduledPaymentsPage), (schedule) => ({
    kind: schedule.kind,
    amount: money(schedule.amount_minor, schedule.currency),
    reference: schedule.reference,
    frequency: schedule.frequency,
    startDate: schedule.start_date,
    weekday: schedule.weekday,
    dayOfMonth: schedule.day_of_month,
    isLastDayOfMonth: schedule.is_last_day_of_month,
    endType: schedule.end_type,
    endDate: schedule.end_date,
    occurrencesMax: schedule.occurrences_max,
    occurrencesMade: schedule.occurrences_made,
    nextDate: schedule.next_date,
    status: schedule.status,
    createdAt: schedule.created_at.toISOString(),
  }));
  yield '\n';
}

async function* bulkPaymentsJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, bulkPaymentsPage), (file) => ({
    status: file.status,
    lineCount: file.line_count,
    total: money(file.total_minor, file.currency),
    paidCount: file.paid_count,
    refusedCount: file.refused_count,
    paid: money(file.paid_minor, file.currency),
    uploadedAt: file.created_at.toISOString(),
    confirmedAt: iso(file.confirmed_at),
    finishedAt: iso(file.finished_at),
  }));
  yield '\n';
}

async function* supportMessagesJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, supportMessagesPage), (message) => ({
    from: message.is_from_staff ? 'support' : 'you',
    body: message.body,
    at: message.created_at.toISOString(),
  }));
  yield '\n';
}

async function* notificationsJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonArray(userPages(context, notificationsPage), (notification) => ({
    kind: notification.kind,
    text: notificationTextFor(notification),
    link: notification.link,
    readAt: iso(notification.read_at),
    at: notification.created_at.toISOString(),
  }));
  yield '\n';
}

async function* signInHistoryJson(context: ExportContext): AsyncGenerator<string> {
  yield* jsonObject([
    [
      'sessions',
      jsonArray(
        userPages(context, sessionsPage),
        (session) => ({
          startedAt: session.created_at.toISOString(),
          lastUsedAt: session.last_used_at.toISOString(),
          endsAt: session.expires_at.toISOString(),
          signedOutAt: iso(session.revoked_at),
          device: session.user_agent,
          ipAddress: session.ip_address,
        }),
        '  ',
      ),
    ],
    ['signInAttempts', jsonArray(userPages(context, signInEventsPage), eventItem, '  ')],
  ]);
}

async function* consentsJson(context: ExportContext): AsyncGenerator<string> {
  const user = await findProfile(context.db, context.userId);
  if (!user) throw new Error('the export is of a user who no longer exists');
  yield* jsonObject([
    ['termsVersionAccepted', user.terms_version],
    ['termsAcceptedAt', iso(user.terms_accepted_at)],
    ['wantsNotificationEmails', user.wants_notification_emails],
    ['termsAcceptances', jsonArray(userPages(context, termsAcceptancesPage), eventItem, '  ')],
  ]);
}

const extensionsByMediaType: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
};

function documentFileName(row: { id: string; media_type: string }): string {
  return `identity-documents/${row.id}.${extensionsByMediaType[row.media_type] ?? 'bin'}`;
}

/**
 * The identity documents' details in one JSON file, then each document itself as it was
 * uploaded, read (and checked) from the KYC feature's encrypted storage as it is zipped.
 */
async function* identityDocumentFiles(context: ExportContext): AsyncGenerator<ExportFile> {
  yield {
    name: 'identity-documents.json',
    content: async () =>
      (async function* () {
        yield* jsonArray(userPages(context, identityDocumentsPage), (row) => ({
          file: documentFileName(row),
          mediaType: row.media_type,
          sizeBytes: row.size_bytes,
          sha256: row.sha256,
          uploadedAt: row.uploaded_at.toISOString(),
          submission:
            row.submission_id === null
              ? null
              : {
                  idType: row.id_type,
                  idNumber: row.id_number,
                  address: row.address,
                  dateOfBirth: row.date_of_birth,
                  status: row.status,
                  reason: row.reason,
                  submittedAt: iso(row.submitted_at),
                  decidedAt: iso(row.decided_at),
                },
        }));
        yield '\n';
      })(),
  };
  for await (const page of userPages(context, identityDocumentsPage)) {
    for (const row of page) {
      yield {
        name: documentFileName(row),
        content: () => context.documents.read(row.storage_key, row.secret_key_id),
      };
    }
  }
}

/** Everything the export holds, in the zip's order after README.txt. */
export const exportSections: ExportSection[] = [
  {
    name: 'profile.json',
    text: 'Your profile: name, email, phone, country, time zone, account level.',
    files: oneFile('profile.json', profileJson),
  },
  {
    name: 'wallets.json',
    text: 'Your wallets: account number, currency and balance of each.',
    files: oneFile('wallets.json', walletsJson),
  },
  {
    name: 'transactions.csv',
    text: 'Every transaction of your wallets, wallet by wallet and oldest first, with the balance after it (a spreadsheet).',
    files: oneFile('transactions.csv', transactionsCsv),
  },
  {
    name: 'transactions.json',
    text: 'The same transactions as JSON.',
    files: oneFile('transactions.json', transactionsJson),
  },
  {
    name: 'statements.json',
    text: 'For each wallet, the months you have statements for, with the money in and out of each; the statements themselves are on the Statements page.',
    files: oneFile('statements.json', statementsJson),
  },
  {
    name: 'loans.json',
    text: 'Your loan applications and loans, with their schedules and repayments.',
    files: oneFile('loans.json', loansJson),
  },
  {
    name: 'cards.json',
    text: 'Your virtual cards (the last four digits only: never the card number or security code) and their purchases.',
    files: oneFile('cards.json', cardsJson),
  },
  {
    name: 'payees.json',
    text: 'The people, bills and bank accounts you saved as payees.',
    files: oneFile('payees.json', payeesJson),
  },
  {
    name: 'scheduled-payments.json',
    text: 'Your scheduled and recurring payments, paused and cancelled ones included.',
    files: oneFile('scheduled-payments.json', scheduledPaymentsJson),
  },
  {
    name: 'bulk-payments.json',
    text: 'The payment files you uploaded: lines, totals, what was paid (each payment is also in transactions).',
    files: oneFile('bulk-payments.json', bulkPaymentsJson),
  },
  {
    name: 'disputes.json',
    text: 'The disputes you filed and how they were resolved.',
    files: oneFile('disputes.json', disputesJson),
  },
  {
    name: 'support-messages.json',
    text: 'Your messages with support and their replies.',
    files: oneFile('support-messages.json', supportMessagesJson),
  },
  {
    name: 'notifications.json',
    text: 'The notifications we sent you.',
    files: oneFile('notifications.json', notificationsJson),
  },
  {
    name: 'sign-in-history.json',
    text: 'Your sessions (device, address, when) and every sign-in attempt.',
    files: oneFile('sign-in-history.json', signInHistoryJson),
  },
  {
    name: 'consents.json',
    text: 'The terms and privacy notice you accepted and when, and whether you want notification emails.',
    files: oneFile('consents.json', consentsJson),
  },
  {
    name: 'identity-documents.json and identity-documents/',
    text: 'The details of your identity verifications, and the documents you uploaded, as you uploaded them.',
    files: identityDocumentFiles,
  },
];

/** README.txt: what each file is, so the export can be read without Coffer; in `language`. */
export function readmeText(options: {
  institutionName: string;
  createdAt: Date;
  isSandbox: boolean;
  language: Language;
}): string {
  const t = translatorFor(options.language);
  return [
    t('Your data at {institutionName}, exported {createdAt}.', {
      institutionName: options.institutionName,
      createdAt: options.createdAt.toISOString(),
    }),
    ...(options.isSandbox ? ['', t('This export is from a sandbox: its money is not real.')] : []),
    '',
    t(
      'Amounts are written in minor units (cents, pence: 1234 is 12.34 in a two-digit currency) as text, with their currency. Times are in UTC (ISO 8601).',
    ),
    '',
    ...exportSections.map(
      (section) => `${section.name}\n  ${translateText(options.language, section.text)}`,
    ),
    '',
  ].join('\n');
}
