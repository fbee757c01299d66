// The database schema. drizzle-kit turns it into the committed SQL under drizzle/;
// queries are written in SQL beside each feature (queries.ts).
import { roles } from '@coffer/contracts/auth';
import { bulkPaymentLineStatuses, bulkPaymentStatuses } from '@coffer/contracts/bulk-payments';
import { authorizationStatuses, cardStatuses } from '@coffer/contracts/cards';
import { dataExportStatuses } from '@coffer/contracts/data-exports';
import { disputeProblemTypes, disputeStatuses } from '@coffer/contracts/disputes';
import { kycIdTypes, kycStatuses } from '@coffer/contracts/kyc';
import { accountKinds, entryKinds } from '@coffer/contracts/ledger';
import { payeeKinds } from '@coffer/contracts/payees';
import {
  payoutBatchFormats,
  reconciliationKinds,
  reconciliationResolutions,
} from '@coffer/contracts/payment-files';
import {
  occurrenceStatuses,
  scheduleEndTypes,
  scheduleFrequencies,
  scheduleKinds,
  scheduleStatuses,
} from '@coffer/contracts/scheduled-payments';
import { stepUpPurposes } from '@coffer/contracts/step-up';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  char,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const accountKind = pgEnum('account_kind', accountKinds);

export const entryKind = pgEnum('entry_kind', entryKinds);

export const holdStatus = pgEnum('hold_status', ['active', 'captured', 'released']);

const moneyColumn = (name: string) => bigint(name, { mode: 'bigint' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey(),
    number: char('number', { length: 10 }).notNull().unique(),
    kind: accountKind('kind').notNull(),
    ownerUserId: uuid('owner_user_id'),
    currency: char('currency', { length: 3 }).notNull(),
    // Customer wallets have one balance row; hot system accounts spread over several.
    bucketCount: smallint('bucket_count').notNull(),
    // The customer's first wallet, which single-wallet features use (migration 0046).
    isMain: boolean('is_main').notNull().default(true),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('accounts_one_system_account_per_kind_and_currency')
      .on(table.kind, table.currency)
      .where(sql`${table.kind} <> 'customer'`),
    uniqueIndex('accounts_one_main_wallet_per_customer')
      .on(table.ownerUserId)
      .where(sql`${table.kind} = 'customer' and ${table.isMain}`),
    uniqueIndex('accounts_one_wallet_per_customer_and_currency')
      .on(table.ownerUserId, table.currency)
      .where(sql`${table.kind} = 'customer'`),
    index('accounts_owner_user_id_idx').on(table.ownerUserId),
    check('accounts_bucket_count_range', sql`${table.bucketCount} between 1 and 64`),
    check(
      'accounts_customer_has_one_bucket',
      sql`${table.kind} <> 'customer' or ${table.bucketCount} = 1`,
    ),
  ],
);

export const accountBalances = pgTable(
  'account_balances',
  {
    // No foreign key: on a hot account each posting's key-share lock made a MultiXact.
    // Accounts are never deleted (a trigger refuses it) and the invariants check lines.
    accountId: uuid('account_id').notNull(),
    bucket: smallint('bucket').notNull(),
    balanceMinor: moneyColumn('balance_minor').notNull().default(sql`0`),
    heldMinor: moneyColumn('held_minor').notNull().default(sql`0`),
    /**
     * A closed customer's wallet (migration 0045, ADR 050): ledger_apply_lines refuses any
     * line on it. On the row every posting locks, so closing and paying cannot both commit.
     */
    isClosed: boolean('is_closed').notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.bucket] }),
    check('account_balances_held_not_negative', sql`${table.heldMinor} >= 0`),
  ],
);

export const journalEntries = pgTable(
  'journal_entries',
  {
    id: uuid('id').primaryKey(),
    kind: entryKind('kind').notNull(),
    memo: text('memo').notNull(),
    idempotencyKey: text('idempotency_key').unique(),
    actorUserId: uuid('actor_user_id'),
    createdAt: createdAt(),
  },
  // A day's lines and the general-ledger export's pages are found by time (migration 0024).
  (table) => [index('journal_entries_created_at_idx').on(table.createdAt, table.id)],
);

export const journalLines = pgTable(
  'journal_lines',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    // No foreign keys, for the same reason as account_balances: ledger_apply_lines writes
    // the lines right after their (append-only) entry and checks every account exists.
    entryId: uuid('entry_id').notNull(),
    accountId: uuid('account_id').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    // The entry's time and kind, copied by ledger_apply_lines (migration 0042, ADR 047).
    postedAt: timestamp('posted_at', { withTimezone: true }).notNull(),
    kind: entryKind('kind').notNull(),
  },
  (table) => [
    index('journal_lines_account_history_idx').on(table.accountId, table.id.desc()),
    index('journal_lines_entry_id_idx').on(table.entryId),
    // Migration 0042 also INCLUDEs amount_minor and kind, which drizzle cannot declare.
    index('journal_lines_account_time_idx').on(table.accountId, table.postedAt, table.id),
    index('journal_lines_account_deposits_idx')
      .on(table.accountId, table.id.desc())
      .where(sql`${table.kind} = 'deposit' AND ${table.amountMinor} > 0`),
    check('journal_lines_amount_not_zero', sql`${table.amountMinor} <> 0`),
  ],
);

/**
 * A customer wallet's lines summed per UTC hour and kind, for hours that have closed
 * (migration 0049, ADR 053): the long-period reads add these up instead of every line.
 */
export const walletHourlyTotals = pgTable(
  'wallet_hourly_totals',
  {
    accountId: uuid('account_id').notNull(),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    kind: entryKind('kind').notNull(),
    creditsMinor: moneyColumn('credits_minor').notNull(),
    debitsMinor: moneyColumn('debits_minor').notNull(),
    lineCount: integer('line_count').notNull(),
    maxLineId: bigint('max_line_id', { mode: 'bigint' }).notNull(),
  },
  (table) => [
    // Migration 0049 also INCLUDEs the four sums, which drizzle cannot declare.
    primaryKey({ columns: [table.accountId, table.hour, table.kind] }),
    check(
      'wallet_hourly_totals_whole_hour',
      sql`date_trunc('hour', ${table.hour}, 'UTC') = ${table.hour}`,
    ),
    check(
      'wallet_hourly_totals_not_negative',
      sql`${table.creditsMinor} >= 0 AND ${table.debitsMinor} >= 0 AND ${table.lineCount} > 0`,
    ),
  ],
);

/** One row: every hour before `summarizedBefore` is in wallet_hourly_totals, whole. */
export const walletHourlyTotalsState = pgTable(
  'wallet_hourly_totals_state',
  {
    id: boolean('id').primaryKey().default(true),
    summarizedBefore: timestamp('summarized_before', { withTimezone: true }),
  },
  (table) => [check('wallet_hourly_totals_state_one_row', sql`${table.id}`)],
);

export const holds = pgTable(
  'holds',
  {
    id: uuid('id').primaryKey(),
    // No foreign key (ADR 023, as ADR 006 for lines): ledger_hold checks the account.
    accountId: uuid('account_id').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    status: holdStatus('status').notNull().default('active'),
    reason: text('reason').notNull(),
    captureEntryId: uuid('capture_entry_id').references(() => journalEntries.id),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (table) => [
    index('holds_active_by_account_idx').on(table.accountId).where(sql`${table.status} = 'active'`),
    check('holds_amount_positive', sql`${table.amountMinor} > 0`),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: char('request_hash', { length: 64 }).notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.key] }),
    index('idempotency_keys_created_at_idx').on(table.createdAt),
  ],
);

export const userRole = pgEnum('user_role', roles);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    username: text('username').notNull(),
    // Stored lower-cased, so the unique index makes addresses case-insensitive.
    email: text('email').notNull(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    phone: text('phone'),
    country: char('country', { length: 2 }).notNull(),
    /** The customer's chosen IANA zone; null: `customerTimeZone` picks one (migration 0031). */
    timeZone: text('time_zone'),
    /**
     * The language they chose (migration 0050; 0053: null until they choose one): signing
     * in adopts it, and their emails and statements are written in it.
     */
    language: text('language'),
    /**
     * The language of the request that last signed them in or up (migration 0053): their
     * emails' and statements' while they have chosen none.
     */
    signInLanguage: text('sign_in_language').notNull().default('en'),
    /**
     * The legal name of the customer's latest approved identity verification (migration
     * 0032); null until one is approved: pages then show the username, never a guess.
     */
    legalName: text('legal_name'),
    /** The version of the operator's terms the customer last accepted, and when (0035). */
    termsVersion: text('terms_version'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    role: userRole('role').notNull().default('customer'),
    level: smallint('level').notNull().default(1),
    passwordHash: text('password_hash').notNull(),
    totpSecretEncrypted: text('totp_secret_encrypted'),
    totpPendingSecretEncrypted: text('totp_pending_secret_encrypted'),
    // The last 30-second step whose code was accepted: a code is good once.
    totpLastUsedStep: bigint('totp_last_used_step', { mode: 'bigint' }),
    // Someone else has seen the password (npm run create-admin): only changing it is open.
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    // Frozen accounts can receive but not send, withdraw or pay; the reason is shown to them.
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    frozenReason: text('frozen_reason'),
    frozenByUserId: uuid('frozen_by_user_id'),
    // The customer's switch for notification emails; security emails go regardless.
    wantsNotificationEmails: boolean('wants_notification_emails').notNull().default(true),
    /**
     * The customer closed their account (migration 0045, ADR 050): no sign-in, no session,
     * no email; the wallet's `account_balances.is_closed` refuses every posting.
     */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** When the retention job removed the closed customer's personal data (ADR 050). */
    personalDataRemovedAt: timestamp('personal_data_removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    index('users_username_trigram_idx').using('gin', sql`lower(${table.username}) gin_trgm_ops`),
    index('users_email_trigram_idx').using('gin', sql`${table.email} gin_trgm_ops`),
    index('users_legal_name_trigram_idx').using('gin', sql`lower(${table.legalName}) gin_trgm_ops`),
    index('users_customer_list_idx').on(table.role, table.id.desc()),
    // Staff search by a phone quoted exactly (migration 0029).
    index('users_phone_idx').on(table.phone).where(sql`${table.phone} is not null`),
    // The reports' new customers per day (migration 0027).
    index('users_customer_created_at_idx')
      .on(table.createdAt)
      .where(sql`${table.role} = 'customer'`),
    // The staff search's id ranges: ids are time-ordered, rows appended (ADR 022).
    index('users_id_brin_idx')
      .using('brin', table.id)
      .with({ pages_per_range: 32, autosummarize: true }),
    // The retention job's closed customers whose data is still here (migration 0045).
    index('users_closed_retention_idx')
      .on(table.closedAt)
      .where(sql`${table.closedAt} IS NOT NULL AND ${table.personalDataRemovedAt} IS NULL`),
    check('users_level_range', sql`${table.level} between 1 and 9`),
    check('users_email_lower_case', sql`${table.email} = lower(${table.email})`),
    check('users_language_known', sql`${table.language} in ('en', 'de', 'ja', 'ar')`),
    check('users_sign_in_language_known', sql`${table.signInLanguage} in ('en', 'de', 'ja', 'ar')`),
  ],
);

/**
 * How many users there are, in 16 stripes summed on read: triggers on users add each
 * statement's inserted or deleted rows to the stripe of the connection's backend pid, in
 * the same transaction (migration 0020, ADR 022).
 */
export const userCountStripes = pgTable(
  'user_count_stripes',
  {
    stripe: smallint('stripe').primaryKey(),
    userCount: bigint('user_count', { mode: 'bigint' }).notNull(),
  },
  (table) => [check('user_count_stripes_stripe_range', sql`${table.stripe} between 0 and 15`)],
);

export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: char('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeHash] })],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    // SHA-256 of the cookie's token: a database leak does not hand out sessions.
    tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text('user_agent'),
    ipAddress: text('ip_address'),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    index('sessions_user_id_idx').on(table.userId),
    index('sessions_expires_at_idx').on(table.expiresAt),
  ],
);

export const loginChallenges = pgTable(
  'login_challenges',
  {
    tokenHash: char('token_hash', { length: 64 }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Tries used: one is spent before each code is checked (ADR 012). */
    failedAttempts: smallint('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('login_challenges_expires_at_idx').on(table.expiresAt)],
);

export const emailTokenPurpose = pgEnum('email_token_purpose', ['verify_email', 'reset_password']);

export const emailTokens = pgTable(
  'email_tokens',
  {
    tokenHash: char('token_hash', { length: 64 }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: emailTokenPurpose('purpose').notNull(),
    // For verification: the address being verified (a new one when changing email).
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    index('email_tokens_user_purpose_idx').on(table.userId, table.purpose),
    index('email_tokens_expires_at_idx').on(table.expiresAt),
  ],
);

/** Failed logins per email address, whether or not an account has it (no enumeration). */
export const loginThrottles = pgTable('login_throttles', {
  emailHash: char('email_hash', { length: 64 }).primaryKey(),
  failureCount: integer('failure_count').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Attempts per client address in a fixed window (platform/attempt-counters.ts). */
export const attemptCounters = pgTable(
  'attempt_counters',
  {
    keyHash: char('key_hash', { length: 64 }).primaryKey(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
    attemptCount: integer('attempt_count').notNull(),
  },
  (table) => [
    index('attempt_counters_window_idx').on(table.windowStartedAt),
    check('attempt_counters_count_check', sql`${table.attemptCount} >= 0`),
  ],
);

export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: uuid('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    /**
     * Set when subject and body are English, to be written in this language when sent:
     * Quick Pay's email, composed before its statement finds the recipient (migration 0054).
     */
    sendInLanguage: text('send_in_language'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /**
     * The language it was written in, for the sandbox marking added as it is sent (migration
     * 0053); null: the recipient's, read then (notify_user writes none).
     */
    language: text('language'),
  },
  (table) => [
    check('outbox_emails_language_known', sql`${table.language} in ('en', 'de', 'ja', 'ar')`),
    index('outbox_emails_pending_idx').on(table.nextAttemptAt).where(sql`${table.sentAt} is null`),
    index('outbox_emails_sent_at_idx').on(table.sentAt).where(sql`${table.sentAt} is not null`),
  ],
);

/** Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE): who did what to whom, and why. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    actorUserId: uuid('actor_user_id'),
    action: text('action').notNull(),
    subjectUserId: uuid('subject_user_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    ipAddress: text('ip_address'),
    createdAt: createdAt(),
  },
  (table) => [
    index('audit_events_subject_idx').on(table.subjectUserId, table.id.desc()),
    index('audit_events_actor_idx').on(table.actorUserId, table.id.desc()),
    index('audit_events_action_idx').on(table.action, table.id.desc()),
  ],
);

export const moneyRequestDirection = pgEnum('money_request_direction', [
  'deposit',
  'debit_adjustment',
]);
export const moneyRequestStatus = pgEnum('money_request_status', [
  'pending_approval',
  'posted',
  'rejected',
  'cancelled',
]);

/** A staff deposit or debit adjustment: posted at once, or waiting for a second admin. */
export const moneyRequests = pgTable(
  'money_requests',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    direction: moneyRequestDirection('direction').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    externalReference: text('external_reference'),
    reason: text('reason').notNull(),
    status: moneyRequestStatus('status').notNull(),
    makerUserId: uuid('maker_user_id')
      .notNull()
      .references(() => users.id),
    checkerUserId: uuid('checker_user_id').references(() => users.id),
    decisionReason: text('decision_reason'),
    entryId: uuid('entry_id').references(() => journalEntries.id),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    index('money_requests_pending_idx')
      .on(table.createdAt)
      .where(sql`${table.status} = 'pending_approval'`),
    index('money_requests_user_idx').on(table.userId, table.createdAt.desc()),
    check('money_requests_amount_positive', sql`${table.amountMinor} > 0`),
    check(
      'money_requests_checker_is_not_maker',
      sql`${table.checkerUserId} is null or ${table.checkerUserId} <> ${table.makerUserId}`,
    ),
  ],
);

export const roleGrantStatus = pgEnum('role_grant_status', ['pending', 'approved', 'rejected']);

/**
 * A request to give someone the admin role, decided by a second admin; kept afterwards
 * as the record of who promoted whom (such an admin never checks the promoter's requests).
 */
export const roleGrants = pgTable(
  'role_grants',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    role: userRole('role').notNull(),
    status: roleGrantStatus('status').notNull(),
    reason: text('reason').notNull(),
    requestedByUserId: uuid('requested_by_user_id')
      .notNull()
      .references(() => users.id),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id),
    decisionReason: text('decision_reason'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('role_grants_one_pending_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index('role_grants_user_idx').on(table.userId),
    check(
      'role_grants_decider_is_not_requester',
      sql`${table.decidedByUserId} is null or ${table.decidedByUserId} <> ${table.requestedByUserId}`,
    ),
    check('role_grants_not_self', sql`${table.requestedByUserId} <> ${table.userId}`),
  ],
);

/**
 * An admin's request to reopen a closed account, decided by a second admin through
 * approvals/ (kind `account_reopening`, ADR 050); kept afterwards as the record.
 */
export const accountReopenings = pgTable(
  'account_reopenings',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: ['pending', 'approved', 'rejected', 'cancelled'] })
      .notNull()
      .default('pending'),
    reason: text('reason').notNull(),
    requestedByUserId: uuid('requested_by_user_id')
      .notNull()
      .references(() => users.id),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id),
    decisionReason: text('decision_reason'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('account_reopenings_one_pending_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index('account_reopenings_user_idx').on(table.userId, table.createdAt),
    check(
      'account_reopenings_status_known',
      sql`${table.status} IN ('pending', 'approved', 'rejected', 'cancelled')`,
    ),
    check(
      'account_reopenings_decider_is_not_requester',
      // Only the requester withdraws (cancels) a request; never approves or rejects it.
      sql`${table.decidedByUserId} IS NULL OR ${table.decidedByUserId} <> ${table.requestedByUserId} OR ${table.status} = 'cancelled'`,
    ),
  ],
);

/** What one maker posted without a second admin, per currency and UTC day. */
export const fourEyesDailyTotals = pgTable(
  'four_eyes_daily_totals',
  {
    makerUserId: uuid('maker_user_id')
      .notNull()
      .references(() => users.id),
    currency: char('currency', { length: 3 }).notNull(),
    day: date('day').notNull(),
    postedMinor: moneyColumn('posted_minor').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'four_eyes_daily_totals_pk',
      columns: [table.makerUserId, table.currency, table.day],
    }),
    check('four_eyes_daily_totals_positive', sql`${table.postedMinor} > 0`),
  ],
);

export const stepUpPurpose = pgEnum('step_up_purpose', stepUpPurposes);

/**
 * A 6-digit code emailed to a customer without an authenticator, for one money movement.
 * Stored hashed; 10 minutes and 5 tries; spent in the transaction that moves the money.
 */
export const stepUpCodes = pgTable(
  'step_up_codes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: stepUpPurpose('purpose').notNull(),
    codeHash: char('code_hash', { length: 64 }).notNull(),
    /**
     * The payment the code confirms (`paymentHashOf`): amount, currency and payee. Null
     * only on codes from before migration 0030, which it spent; a null matches nothing.
     */
    paymentHash: char('payment_hash', { length: 64 }),
    /** Tries used: one is spent before each comparison, a right code's too (ADR 012). */
    failedAttempts: smallint('failed_attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('step_up_codes_user_idx').on(table.userId, table.createdAt.desc()),
    index('step_up_codes_expires_at_idx').on(table.expiresAt),
  ],
);

/**
 * A Quick Pay between two customers: one ledger entry, and who sent what to whom. The
 * entry has no foreign key: quick_pay writes both, and entries are append-only.
 */
export const transfers = pgTable(
  'transfers',
  {
    entryId: uuid('entry_id').primaryKey(),
    senderUserId: uuid('sender_user_id')
      .notNull()
      .references(() => users.id),
    recipientUserId: uuid('recipient_user_id')
      .notNull()
      .references(() => users.id),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (table) => [
    index('transfers_sender_idx').on(table.senderUserId, table.createdAt.desc()),
    index('transfers_recipient_idx').on(table.recipientUserId, table.createdAt.desc()),
    check('transfers_amount_positive', sql`${table.amountMinor} > 0`),
    check('transfers_not_to_self', sql`${table.senderUserId} <> ${table.recipientUserId}`),
  ],
);

export const payoutMethod = pgEnum('payout_method', ['bank', 'paypal', 'cashapp', 'crypto']);
export const payoutStatus = pgEnum('payout_status', ['pending', 'sent', 'rejected']);

/** A withdrawal: the amount plus fee is held at once; staff send it (capture) or reject it (release). */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    holdId: uuid('hold_id')
      .notNull()
      .references(() => holds.id),
    amountMinor: moneyColumn('amount_minor').notNull(),
    feeMinor: moneyColumn('fee_minor').notNull().default(sql`0`),
    currency: char('currency', { length: 3 }).notNull(),
    method: payoutMethod('method').notNull(),
    destination: jsonb('destination').notNull(),
    status: payoutStatus('status').notNull().default('pending'),
    externalReference: text('external_reference'),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id),
    decisionReason: text('decision_reason'),
    entryId: uuid('entry_id').references(() => journalEntries.id),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The batch file it was sent in (migration 0026), if it left in one. */
    batchId: uuid('batch_id').references((): AnyPgColumn => payoutBatches.id),
    /** The bank statement whose debit matched it, once one did. */
    bankStatementId: uuid('bank_statement_id').references((): AnyPgColumn => bankStatements.id),
  },
  (table) => [
    uniqueIndex('payouts_hold_unique').on(table.holdId),
    index('payouts_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    index('payouts_user_idx').on(table.userId, table.createdAt.desc()),
    check('payouts_amount_positive', sql`${table.amountMinor} > 0`),
    check('payouts_fee_not_negative', sql`${table.feeMinor} >= 0`),
  ],
);

export const billCategory = pgEnum('bill_category', [
  'electricity',
  'water',
  'internet',
  'phone',
  'rent',
]);

/** A bill paid from the wallet to the bill-clearing account, settled at once. */
export const billPayments = pgTable(
  'bill_payments',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    category: billCategory('category').notNull(),
    billerReference: text('biller_reference').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    createdAt: createdAt(),
  },
  (table) => [
    index('bill_payments_user_idx').on(table.userId, table.createdAt.desc()),
    check('bill_payments_amount_positive', sql`${table.amountMinor} > 0`),
  ],
);

/**
 * Each customer's money out per kind and UTC day, kept by money_out_lock as movements
 * happen (minus rejected payouts), so the daily limit reads one row.
 */
export const moneyOutDays = pgTable(
  'money_out_days',
  {
    userId: uuid('user_id').notNull(),
    /** The limits are a currency's (migration 0051): a day's total is counted per currency. */
    currency: char('currency', { length: 3 }).notNull(),
    kind: text('kind').notNull(),
    day: date('day').notNull(),
    spentMinor: moneyColumn('spent_minor').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'money_out_days_pk',
      columns: [table.userId, table.currency, table.kind, table.day],
    }),
    check('money_out_days_kind', sql`${table.kind} IN ('transfer', 'bill_payment', 'payout')`),
    check('money_out_days_not_negative', sql`${table.spentMinor} >= 0`),
  ],
);

export const kycIdType = pgEnum('kyc_id_type', kycIdTypes);
export const kycStatus = pgEnum('kyc_status', kycStatuses);

/** An uploaded identity document: the encrypted file's key, its type from the bytes, size and hash. */
export const kycDocuments = pgTable(
  'kyc_documents',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    storageKey: text('storage_key').notNull().unique(),
    mediaType: text('media_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: char('sha256', { length: 64 }).notNull(),
    // The COFFER_SECRET_KEY key the file is encrypted with ('legacy': the key given alone).
    secretKeyId: text('secret_key_id').notNull(),
    createdAt: createdAt(),
    // Set when the file is removed (retention, or never attached); the row stays for the record.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [
    index('kyc_documents_unattached_idx')
      .on(table.createdAt)
      .where(sql`${table.deletedAt} is null`),
    check('kyc_documents_size_positive', sql`${table.sizeBytes} > 0`),
  ],
);

export const kycSubmissions = pgTable(
  'kyc_submissions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    idType: kycIdType('id_type').notNull(),
    /** Null on submissions made before the form asked for it (migration 0032). */
    legalName: text('legal_name'),
    idNumber: text('id_number').notNull(),
    address: text('address').notNull(),
    dateOfBirth: date('date_of_birth').notNull(),
    documentId: uuid('document_id')
      .notNull()
      .unique()
      .references(() => kycDocuments.id),
    status: kycStatus('status').notNull().default('pending'),
    reviewerUserId: uuid('reviewer_user_id'),
    reason: text('reason'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    // One pending submission per customer: of two submitted at once, one is refused here.
    uniqueIndex('kyc_submissions_one_pending_per_user')
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index('kyc_submissions_user_idx').on(table.userId, table.createdAt.desc()),
    index('kyc_submissions_queue_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    // The reports' verifications approved per day (migration 0027).
    index('kyc_submissions_approved_idx')
      .on(table.decidedAt)
      .where(sql`${table.status} = 'approved'`),
  ],
);

/**
 * One line in a person's bell (migration 0012). `kind` is text: features add their own
 * kinds in contracts/notifications.ts without a migration.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    link: text('link'),
    /**
     * The text is English, put into the reader's language when read: Quick Pay's, written
     * before its statement knows the recipient's language (migration 0054). Every other
     * notification is written in its reader's language.
     */
    isEnglishSource: boolean('is_english_source').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('notifications_user_idx').on(table.userId, table.id.desc()),
    index('notifications_unread_idx').on(table.userId).where(sql`${table.readAt} is null`),
    index('notifications_read_at_idx').on(table.readAt).where(sql`${table.readAt} is not null`),
  ],
);

export const disputeProblemType = pgEnum('dispute_problem_type', disputeProblemTypes);
export const disputeStatus = pgEnum('dispute_status', disputeStatuses);

/** A customer's reported problem, worked by staff; a refund is a linked money request. */
export const disputes = pgTable(
  'disputes',
  {
    id: uuid('id').primaryKey(),
    reference: char('reference', { length: 13 }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    // Null on a dispute about a transaction other than a transfer (migration 0034).
    recipientAccountNumber: text('recipient_account_number'),
    problemType: disputeProblemType('problem_type').notNull(),
    description: text('description').notNull(),
    entryId: uuid('entry_id').references(() => journalEntries.id),
    status: disputeStatus('status').notNull().default('pending'),
    resolutionNote: text('resolution_note'),
    refundRequestId: uuid('refund_request_id').references(() => moneyRequests.id),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('disputes_reference_unique').on(table.reference),
    index('disputes_user_idx').on(table.userId, table.createdAt.desc()),
    index('disputes_open_idx')
      .on(table.createdAt)
      .where(sql`${table.status} in ('pending', 'investigating')`),
    // A refund's decision finds the dispute it refunds (migration 0029).
    index('disputes_refund_request_idx')
      .on(table.refundRequestId)
      .where(sql`${table.refundRequestId} is not null`),
    check('disputes_reference_form', sql`${table.reference} ~ '^REF-[A-Z0-9]{9}$'`),
    check('disputes_amount_positive', sql`${table.amountMinor} > 0`),
  ],
);

/**
 * The dispute that speaks for a transaction of a customer's: at most one each, so a second
 * filing is refused with its reference (migration 0034; older disputes may share one).
 */
export const disputedTransactions = pgTable(
  'disputed_transactions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => journalEntries.id),
    disputeId: uuid('dispute_id')
      .notNull()
      .references(() => disputes.id),
  },
  (table) => [
    primaryKey({ name: 'disputed_transactions_pkey', columns: [table.userId, table.entryId] }),
    uniqueIndex('disputed_transactions_dispute_id_unique').on(table.disputeId),
  ],
);

/** One support thread per customer: who waits for a reply, and what the customer has read. */
export const supportThreads = pgTable(
  'support_threads',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    awaitingStaffSince: timestamp('awaiting_staff_since', { withTimezone: true }),
    customerReadAt: timestamp('customer_read_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    // The colleague (support or admin) the thread was passed to (migration 0033).
    assignedToUserId: uuid('assigned_to_user_id').references(() => users.id),
    // Answered is not resolved: the thread stays in the inbox until staff resolve it, and a
    // customer's new message opens it again.
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [
    index('support_threads_awaiting_idx')
      .on(table.awaitingStaffSince)
      .where(sql`${table.awaitingStaffSince} is not null`),
    index('support_threads_open_idx')
      .on(table.lastMessageAt)
      .where(sql`${table.resolvedAt} is null`),
  ],
);

export const supportMessages = pgTable(
  'support_messages',
  {
    id: uuid('id').primaryKey(),
    threadUserId: uuid('thread_user_id')
      .notNull()
      .references(() => supportThreads.userId, { onDelete: 'cascade' }),
    authorUserId: uuid('author_user_id')
      .notNull()
      .references(() => users.id),
    isFromStaff: boolean('is_from_staff').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('support_messages_thread_idx').on(table.threadUserId, table.id)],
);

export const cardStatus = pgEnum('card_status', cardStatuses);
export const cardAuthorizationStatus = pgEnum('card_authorization_status', authorizationStatuses);

/**
 * A customer's virtual card as Coffer knows it: the issuer's token, last four, expiry and
 * holder, never the full number or security code (ADR 016). `spent_minor` counts the
 * approved purchases of the week starting `spent_week_start` (Monday, UTC).
 */
export const cards = pgTable(
  'cards',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id').notNull(),
    status: cardStatus('status').notNull().default('requested'),
    issuerToken: text('issuer_token').unique(),
    lastFour: char('last_four', { length: 4 }),
    expiryMonth: smallint('expiry_month'),
    expiryYear: smallint('expiry_year'),
    holderName: text('holder_name').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    feeMinor: moneyColumn('fee_minor').notNull(),
    feeHoldId: uuid('fee_hold_id'),
    feeEntryId: uuid('fee_entry_id'),
    weeklyLimitMinor: moneyColumn('weekly_limit_minor').notNull(),
    spentWeekStart: date('spent_week_start'),
    spentMinor: moneyColumn('spent_minor').notNull().default(sql`0`),
    reason: text('reason'),
    decidedByUserId: uuid('decided_by_user_id'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    frozenAt: timestamp('frozen_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('cards_one_open_per_user')
      .on(table.userId)
      .where(sql`${table.status} in ('requested', 'issued', 'frozen')`),
    index('cards_user_idx').on(table.userId, table.createdAt.desc()),
    // Staff search by a last four: a page of the newest matching customers (migration 0029).
    index('cards_last_four_idx')
      .on(table.lastFour, table.userId)
      .where(sql`${table.lastFour} is not null`),
    index('cards_queue_idx').on(table.createdAt).where(sql`${table.status} = 'requested'`),
    check('cards_fee_not_negative', sql`${table.feeMinor} >= 0`),
    check('cards_spent_not_negative', sql`${table.spentMinor} >= 0`),
  ],
);

/** The issuing processor's authorizations: each approved one holds its amount in the ledger. */
export const cardAuthorizations = pgTable(
  'card_authorizations',
  {
    id: uuid('id').primaryKey(),
    processorId: text('processor_id').notNull().unique(),
    cardId: uuid('card_id')
      .notNull()
      .references(() => cards.id),
    userId: uuid('user_id').notNull(),
    accountId: uuid('account_id').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    merchant: text('merchant').notNull(),
    status: cardAuthorizationStatus('status').notNull(),
    declineReason: text('decline_reason'),
    holdId: uuid('hold_id'),
    entryId: uuid('entry_id'),
    weekStart: date('week_start').notNull(),
    settlementId: text('settlement_id'),
    createdAt: createdAt(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The processor's settlement file that first showed this settlement (0028). */
    settlementFileId: uuid('settlement_file_id').references(() => cardSettlementFiles.id),
  },
  (table) => [
    index('card_authorizations_card_idx').on(table.cardId, table.createdAt.desc()),
    // Partial (ADR 023): an authorization is written without a settlement id.
    uniqueIndex('card_authorizations_settlement_id_unique')
      .on(table.settlementId)
      .where(sql`${table.settlementId} is not null`),
    index('card_authorizations_settled_idx')
      .on(table.settledAt)
      .where(sql`${table.settledAt} is not null`),
    // A dispute about a purchase finds its card (migration 0034).
    index('card_authorizations_entry_idx')
      .on(table.entryId)
      .where(sql`${table.entryId} is not null`),
    check('card_authorizations_amount_positive', sql`${table.amountMinor} > 0`),
    check(
      'card_authorizations_approved_has_hold',
      sql`${table.status} = 'declined' or ${table.holdId} is not null`,
    ),
  ],
);

/** The built-in sandbox issuer's own records, as a processor keeps them outside Coffer. */
export const sandboxIssuerCards = pgTable('sandbox_issuer_cards', {
  token: text('token').primaryKey(),
  reference: uuid('reference').notNull().unique(),
  number: char('number', { length: 16 }).notNull().unique(),
  securityCode: char('security_code', { length: 3 }).notNull(),
  expiryMonth: smallint('expiry_month').notNull(),
  expiryYear: smallint('expiry_year').notNull(),
  holderName: text('holder_name').notNull(),
  status: text('status').notNull().default('active'),
  createdAt: createdAt(),
});

export const loanEligibilities = pgTable('loan_eligibilities', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  amountMinor: moneyColumn('amount_minor').notNull(),
  currency: char('currency', { length: 3 }).notNull(),
  reason: text('reason').notNull(),
  setByUserId: uuid('set_by_user_id')
    .notNull()
    .references(() => users.id),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A customer's request to have their eligibility assessed (issue #31 item 2): open while
 * `settled_at` is null, settled when staff set the eligibility; one row per customer.
 */
export const loanAssessmentRequests = pgTable(
  'loan_assessment_requests',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    settledByUserId: uuid('settled_by_user_id').references(() => users.id),
    declinedReason: text('declined_reason'),
  },
  (table) => [
    index('loan_assessment_requests_open_idx')
      .on(table.requestedAt)
      .where(sql`${table.settledAt} is null`),
  ],
);

export const loans = pgTable(
  'loans',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    currency: char('currency', { length: 3 }).notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    monthlySalaryMinor: moneyColumn('monthly_salary_minor').notNull(),
    months: smallint('months').notNull(),
    annualRateBp: integer('annual_rate_bp').notNull(),
    fullName: text('full_name').notNull(),
    phone: text('phone').notNull(),
    address: text('address').notNull(),
    status: text('status', {
      enum: ['pending', 'approved', 'declined', 'disbursed', 'repaid'],
    })
      .notNull()
      .default('pending'),
    decisionReason: text('decision_reason'),
    decidedByUserId: uuid('decided_by_user_id').references(() => users.id),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    disbursementRequestedByUserId: uuid('disbursement_requested_by_user_id').references(
      () => users.id,
    ),
    disbursedByUserId: uuid('disbursed_by_user_id').references(() => users.id),
    disbursedOn: date('disbursed_on', { mode: 'string' }),
    disbursedAt: timestamp('disbursed_at', { withTimezone: true }),
    disbursementEntryId: uuid('disbursement_entry_id'),
    instalmentMinor: moneyColumn('instalment_minor'),
    outstandingPrincipalMinor: moneyColumn('outstanding_principal_minor').notNull().default(sql`0`),
    isAutoRepayOn: boolean('is_auto_repay_on').notNull().default(true),
    shortNoticeOn: date('short_notice_on', { mode: 'string' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('loans_one_pending_per_user')
      .on(table.userId)
      .where(sql`${table.status} = 'pending'`),
    index('loans_user_idx').on(table.userId, table.createdAt.desc()),
    index('loans_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    index('loans_approved_idx').on(table.decidedAt).where(sql`${table.status} = 'approved'`),
    check(
      'loans_disbursed_by_second_admin',
      sql`${table.disbursementRequestedByUserId} is null or ${table.disbursedByUserId} is null or ${table.disbursementRequestedByUserId} <> ${table.disbursedByUserId}`,
    ),
  ],
);

export const loanInstalments = pgTable(
  'loan_instalments',
  {
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id),
    number: smallint('number').notNull(),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    principalMinor: moneyColumn('principal_minor').notNull(),
    interestMinor: moneyColumn('interest_minor').notNull(),
    principalPaidMinor: moneyColumn('principal_paid_minor').notNull().default(sql`0`),
    interestPaidMinor: moneyColumn('interest_paid_minor').notNull().default(sql`0`),
  },
  (table) => [
    primaryKey({ name: 'loan_instalments_pk', columns: [table.loanId, table.number] }),
    index('loan_instalments_unpaid_due_idx')
      .on(table.dueOn)
      .where(
        sql`${table.principalPaidMinor} < ${table.principalMinor} or ${table.interestPaidMinor} < ${table.interestMinor}`,
      ),
  ],
);

export const loanRepayments = pgTable(
  'loan_repayments',
  {
    id: uuid('id').primaryKey(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id),
    entryId: uuid('entry_id').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    principalMinor: moneyColumn('principal_minor').notNull(),
    interestMinor: moneyColumn('interest_minor').notNull(),
    isAutomatic: boolean('is_automatic').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('loan_repayments_loan_idx').on(table.loanId, table.createdAt)],
);

/** The one scheduled-jobs runner's rows (platform/jobs.ts, ADR 015). */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  intervalMs: bigint('interval_ms', { mode: 'number' }).notNull(),
  nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
  lastStartedAt: timestamp('last_started_at', { withTimezone: true }),
  lastFinishedAt: timestamp('last_finished_at', { withTimezone: true }),
  lastError: text('last_error'),
});

/**
 * One closed day of the institution's time zone (migration 0024): written once by the
 * daily close, never changed (a trigger refuses it); the day as key makes a second close
 * of it impossible.
 */
export const bookCloses = pgTable(
  'book_closes',
  {
    day: date('day').primaryKey(),
    timeZone: text('time_zone').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    lineCount: bigint('line_count', { mode: 'bigint' }).notNull(),
    isBalanced: boolean('is_balanced').notNull(),
    /** What was wrong: unbalanced currencies and ledger invariant violations. */
    problems: jsonb('problems').notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('book_closes_day_order', sql`${table.startsAt} < ${table.endsAt}`)],
);

/** A closed day's movements per currency and account kind; as immutable as its day. */
export const bookCloseBalances = pgTable(
  'book_close_balances',
  {
    day: date('day')
      .notNull()
      .references(() => bookCloses.day),
    currency: char('currency', { length: 3 }).notNull(),
    accountKind: accountKind('account_kind').notNull(),
    openingMinor: moneyColumn('opening_minor').notNull(),
    debitsMinor: moneyColumn('debits_minor').notNull(),
    creditsMinor: moneyColumn('credits_minor').notNull(),
    closingMinor: moneyColumn('closing_minor').notNull(),
  },
  (table) => [
    primaryKey({
      name: 'book_close_balances_pk',
      columns: [table.day, table.currency, table.accountKind],
    }),
    check(
      'book_close_balances_movements_not_negative',
      sql`${table.debitsMinor} >= 0 AND ${table.creditsMinor} >= 0`,
    ),
    check(
      'book_close_balances_add_up',
      sql`${table.closingMinor} = ${table.openingMinor} + ${table.creditsMinor} - ${table.debitsMinor}`,
    ),
  ],
);

/**
 * Each day's reading of every work queue's open count (migration 0027), written by the
 * reports' job, the day's last reading winning: a queue's past size cannot be read back.
 */
export const reportQueueSizes = pgTable(
  'report_queue_sizes',
  {
    day: date('day').notNull(),
    queue: text('queue').notNull(),
    openCount: integer('open_count').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: 'report_queue_sizes_pk', columns: [table.day, table.queue] }),
    check('report_queue_sizes_open_count_not_negative', sql`${table.openCount} >= 0`),
  ],
);

/**
 * A payout batch file (migration 0026): its payouts were marked sent together under its
 * reference; the file is kept as written, so a second download is the same file.
 */
export const payoutBatches = pgTable('payout_batches', {
  id: uuid('id').primaryKey(),
  reference: text('reference').notNull().unique(),
  currency: char('currency', { length: 3 }).notNull(),
  format: text('format', { enum: payoutBatchFormats }).notNull(),
  fileText: text('file_text').notNull(),
  payoutCount: integer('payout_count').notNull(),
  totalMinor: moneyColumn('total_minor').notNull(),
  createdByUserId: uuid('created_by_user_id')
    .notNull()
    .references(() => users.id),
  createdAt: createdAt(),
  downloadCount: integer('download_count').notNull().default(0),
  firstDownloadedAt: timestamp('first_downloaded_at', { withTimezone: true }),
  firstDownloadedByUserId: uuid('first_downloaded_by_user_id').references(() => users.id),
});

/** An imported camt.053 statement of the institution's own account; its hash is unique. */
export const bankStatements = pgTable('bank_statements', {
  id: uuid('id').primaryKey(),
  fileSha256: text('file_sha256').notNull().unique(),
  statementReference: text('statement_reference').notNull(),
  accountIban: text('account_iban').notNull(),
  entryCount: integer('entry_count').notNull(),
  depositRequestCount: integer('deposit_request_count').notNull(),
  matchedPayoutCount: integer('matched_payout_count').notNull(),
  queuedCount: integer('queued_count').notNull(),
  uploadedByUserId: uuid('uploaded_by_user_id')
    .notNull()
    .references(() => users.id),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An imported card settlement file: the processor's settlements of one day; its hash is unique. */
export const cardSettlementFiles = pgTable('card_settlement_files', {
  id: uuid('id').primaryKey(),
  fileSha256: text('file_sha256').notNull().unique(),
  settlementDay: date('settlement_day').notNull(),
  lineCount: integer('line_count').notNull(),
  matchedCount: integer('matched_count').notNull(),
  queuedCount: integer('queued_count').notNull(),
  uploadedByUserId: uuid('uploaded_by_user_id')
    .notNull()
    .references(() => users.id),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What a payment file did not match, with its reason, until staff resolve it. */
export const reconciliationItems = pgTable('reconciliation_items', {
  id: uuid('id').primaryKey(),
  kind: text('kind', { enum: reconciliationKinds }).notNull(),
  bankStatementId: uuid('bank_statement_id').references(() => bankStatements.id),
  payoutId: uuid('payout_id').references(() => payouts.id),
  cardSettlementFileId: uuid('card_settlement_file_id').references(() => cardSettlementFiles.id),
  cardAuthorizationId: uuid('card_authorization_id').references(() => cardAuthorizations.id),
  refundableMinor: moneyColumn('refundable_minor'),
  amountMinor: moneyColumn('amount_minor').notNull(),
  expectedMinor: moneyColumn('expected_minor'),
  currency: char('currency', { length: 3 }).notNull(),
  bookingDate: date('booking_date'),
  counterparty: text('counterparty'),
  remittance: text('remittance'),
  bankReference: text('bank_reference'),
  reason: text('reason').notNull(),
  status: text('status', { enum: ['open', 'resolved'] })
    .notNull()
    .default('open'),
  resolution: text('resolution', { enum: reconciliationResolutions }),
  note: text('note'),
  moneyRequestId: uuid('money_request_id').references(() => moneyRequests.id),
  resolvedByUserId: uuid('resolved_by_user_id').references(() => users.id),
  resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * A customer's saved payee (ADR 043): the form's fields it fills (`target`, checked by the
 * form's own schema) and what decides where the money goes (`targetKey`), unique per
 * customer. A Coffer recipient is kept as typed, not as a user id: it is looked up at
 * each payment, as Quick Pay does.
 */
export const payees = pgTable(
  'payees',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    nickname: text('nickname').notNull(),
    kind: text('kind', { enum: payeeKinds }).notNull(),
    target: jsonb('target').notNull(),
    targetKey: text('target_key').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('payees_user_target_unique').on(table.userId, table.targetKey),
    index('payees_user_created_idx').on(table.userId, table.createdAt),
    check('payees_kind_known', sql`${table.kind} IN ('coffer', 'bill', 'payout')`),
    check('payees_nickname_length', sql`char_length(${table.nickname}) BETWEEN 1 AND 40`),
  ],
);

/**
 * Scheduled and recurring payments (migration 0040, ADR 045): a saved payee paid on local
 * dates of the customer's zone. `payee_id` has no foreign key: a deleted payee leaves the
 * schedule, and its next occurrence is refused as "payee gone".
 */
export const scheduledPayments = pgTable(
  'scheduled_payments',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    payeeId: uuid('payee_id').notNull(),
    kind: text('kind', { enum: scheduleKinds }).notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    reference: text('reference'),
    frequency: text('frequency', { enum: scheduleFrequencies }).notNull(),
    startDate: date('start_date').notNull(),
    weekday: smallint('weekday'),
    dayOfMonth: smallint('day_of_month'),
    isLastDayOfMonth: boolean('is_last_day_of_month').notNull().default(false),
    endType: text('end_type', { enum: scheduleEndTypes }).notNull(),
    endDate: date('end_date'),
    occurrencesMax: integer('occurrences_max'),
    occurrencesMade: integer('occurrences_made').notNull().default(0),
    nextDate: date('next_date'),
    status: text('status', { enum: scheduleStatuses }).notNull().default('active'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('scheduled_payments_user_created_idx').on(table.userId, table.createdAt),
    index('scheduled_payments_due_idx')
      .on(table.nextDate)
      .where(sql`${table.status} = 'active' AND ${table.nextDate} IS NOT NULL`),
    check('scheduled_payments_kind_known', sql`${table.kind} IN ('quick_pay', 'bill', 'payout')`),
    check('scheduled_payments_amount_positive', sql`${table.amountMinor} > 0`),
    check(
      'scheduled_payments_frequency_known',
      sql`${table.frequency} IN ('once', 'weekly', 'monthly')`,
    ),
    check('scheduled_payments_weekday_range', sql`${table.weekday} BETWEEN 1 AND 7`),
    check('scheduled_payments_day_of_month_range', sql`${table.dayOfMonth} BETWEEN 1 AND 30`),
    check(
      'scheduled_payments_end_type_known',
      sql`${table.endType} IN ('never', 'until', 'count')`,
    ),
    check(
      'scheduled_payments_end_after_start',
      sql`${table.endDate} IS NULL OR ${table.endDate} >= ${table.startDate}`,
    ),
    check(
      'scheduled_payments_status_known',
      sql`${table.status} IN ('active', 'paused', 'cancelled')`,
    ),
  ],
);

/** One occurrence of a schedule: its local date is its key, so it is made and paid once. */
export const scheduledPaymentOccurrences = pgTable(
  'scheduled_payment_occurrences',
  {
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => scheduledPayments.id),
    localDate: date('local_date').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    status: text('status', { enum: occurrenceStatuses }).notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    reason: text('reason'),
    ledgerReference: text('ledger_reference'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.scheduleId, table.localDate] }),
    index('scheduled_payment_occurrences_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} IN ('pending', 'retrying')`),
    check(
      'scheduled_payment_occurrences_status_known',
      sql`${table.status} IN ('pending', 'paid', 'retrying', 'missed', 'skipped')`,
    ),
  ],
);

export const passkeyFlows = ['registration', 'sign_in', 'second_factor', 'step_up'] as const;

/**
 * A WebAuthn credential of a customer or member of staff (ADR 046): the authenticator's
 * id and public key (base64url of its COSE key), its signature counter (a counter that
 * goes back is a cloned authenticator, refused), the transports it named, and the name
 * its owner gave it.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'bigint' }).notNull().default(sql`0`),
    transports: text('transports').array().notNull().default(sql`'{}'`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('passkeys_credential_id_unique').on(table.credentialId),
    index('passkeys_user_created_idx').on(table.userId, table.createdAt),
    check('passkeys_name_length', sql`char_length(${table.name}) BETWEEN 1 AND 60`),
  ],
);

/**
 * A WebAuthn challenge the server handed out: single use, short-lived, bound to its flow,
 * to the user it was made for (null for a passwordless sign-in) and to what it confirms
 * (`binding`: the login challenge of a second factor, the payment of a step-up).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    flow: text('flow', { enum: passkeyFlows }).notNull(),
    challenge: text('challenge').notNull(),
    binding: text('binding'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    index('passkey_challenges_expires_at_idx').on(table.expiresAt),
    uniqueIndex('passkey_challenges_challenge_unique').on(table.challenge),
    check(
      'passkey_challenges_flow_known',
      sql`${table.flow} IN ('registration', 'sign_in', 'second_factor', 'step_up')`,
    ),
  ],
);

/**
 * A bulk payment file (ADR 044): checked whole at upload (`checked`), confirmed with a
 * step-up code for its total (`paying`), paid line by line by the bulk payer (`done`).
 * The counts and `paid_minor` are kept by the batch that pays the lines.
 */
export const bulkPayments = pgTable(
  'bulk_payments',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    walletId: uuid('wallet_id').notNull(),
    currency: char('currency', { length: 3 }).notNull(),
    status: text('status', { enum: bulkPaymentStatuses }).notNull().default('checked'),
    lineCount: integer('line_count').notNull(),
    totalMinor: moneyColumn('total_minor').notNull(),
    paidCount: integer('paid_count').notNull().default(0),
    refusedCount: integer('refused_count').notNull().default(0),
    paidMinor: moneyColumn('paid_minor').notNull().default(0n),
    createdAt: createdAt(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('bulk_payments_user_created_idx').on(table.userId, table.createdAt),
    index('bulk_payments_paying_idx').on(table.confirmedAt).where(sql`${table.status} = 'paying'`),
    check('bulk_payments_status_known', sql`${table.status} IN ('checked', 'paying', 'done')`),
    check('bulk_payments_total_positive', sql`${table.totalMinor} > 0`),
    check('bulk_payments_line_count_range', sql`${table.lineCount} BETWEEN 1 AND 10000`),
    check(
      'bulk_payments_counts_fit',
      sql`${table.paidCount} + ${table.refusedCount} <= ${table.lineCount}`,
    ),
  ],
);

/**
 * One line of a bulk payment file, keyed by the file and its line number (the ledger's
 * idempotency key is made of the same two). The recipient was found at upload; its
 * wallet is paid as typed then.
 */
export const bulkPaymentLines = pgTable(
  'bulk_payment_lines',
  {
    bulkPaymentId: uuid('bulk_payment_id')
      .notNull()
      .references(() => bulkPayments.id),
    lineNumber: integer('line_number').notNull(),
    recipientUserId: uuid('recipient_user_id').notNull(),
    recipientWalletId: uuid('recipient_wallet_id').notNull(),
    recipient: text('recipient').notNull(),
    amountMinor: moneyColumn('amount_minor').notNull(),
    reference: text('reference').notNull(),
    status: text('status', { enum: bulkPaymentLineStatuses }).notNull().default('pending'),
    refusalReason: text('refusal_reason'),
    entryId: uuid('entry_id'),
  },
  (table) => [
    primaryKey({ columns: [table.bulkPaymentId, table.lineNumber] }),
    // The payer's claim (migration 0048): a file's first pending line, and those after it.
    index('bulk_payment_lines_pending_idx')
      .on(table.bulkPaymentId, table.lineNumber)
      .where(sql`${table.status} = 'pending'`),
    check(
      'bulk_payment_lines_status_known',
      sql`${table.status} IN ('pending', 'paid', 'refused')`,
    ),
    check('bulk_payment_lines_amount_positive', sql`${table.amountMinor} > 0`),
  ],
);

export const webhookEndpointStatus = pgEnum('webhook_endpoint_status', ['enabled', 'disabled']);
export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', [
  'pending',
  'delivered',
  'failed',
]);

/**
 * An integrator's webhook endpoint (ADR 048, migration 0043). Its signing secret is sealed
 * with COFFER_SECRET_KEY (platform/crypto.ts); after a roll the previous one still signs
 * until `previousSecretExpiresAt`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    url: text('url').notNull(),
    eventTypes: text('event_types').array().notNull(),
    status: webhookEndpointStatus('status').notNull().default('enabled'),
    disabledReason: text('disabled_reason', { enum: ['failing', 'staff'] }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    secretEncrypted: text('secret_encrypted').notNull(),
    previousSecretEncrypted: text('previous_secret_encrypted'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdByUserId: uuid('created_by_user_id').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('webhook_endpoints_has_event_types', sql`cardinality(${table.eventTypes}) > 0`),
    check(
      'webhook_endpoints_disabled_reason_known',
      sql`${table.disabledReason} IN ('failing', 'staff')`,
    ),
  ],
);

/** One event for integrators, written by the ledger with its entry (webhooks_enqueue_money). */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id').primaryKey(),
    type: text('type').notNull(),
    entryId: uuid('entry_id').notNull(),
    accountId: uuid('account_id').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('webhook_events_created_at_idx').on(table.createdAt)],
);

/** One event to one endpoint; sent in id order per endpoint and wallet. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    // No foreign key to the endpoint (migration 0043 says why).
    endpointId: uuid('endpoint_id').notNull(),
    accountId: uuid('account_id').notNull(),
    status: webhookDeliveryStatus('status').notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    giveUpAt: timestamp('give_up_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    replayOfId: bigint('replay_of_id', { mode: 'bigint' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt, table.id)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_order_idx')
      .on(table.endpointId, table.accountId, table.id)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.id.desc()),
    index('webhook_deliveries_finished_at_idx')
      .on(table.finishedAt)
      .where(sql`${table.finishedAt} IS NOT NULL`),
    index('webhook_deliveries_event_idx').on(table.eventId),
  ],
);

/** One try at a delivery: what the endpoint answered, how long it took, its first bytes. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'bigint' })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    url: text('url').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    responseHead: text('response_head').notNull(),
  },
  (table) => [index('webhook_attempts_delivery_idx').on(table.deliveryId, table.id)],
);

/**
 * A quote for an exchange between two of a customer's wallets (ADR 051, migration 0047):
 * the amounts as shown, valid until `expires_at`; accepting it posts exactly them, once.
 */
export const exchangeQuotes = pgTable(
  'exchange_quotes',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    sellAccountId: uuid('sell_account_id').notNull(),
    receiveAccountId: uuid('receive_account_id').notNull(),
    sellCurrency: char('sell_currency', { length: 3 }).notNull(),
    receiveCurrency: char('receive_currency', { length: 3 }).notNull(),
    sellMinor: moneyColumn('sell_minor').notNull(),
    receiveMinor: moneyColumn('receive_minor').notNull(),
    markupMinor: moneyColumn('markup_minor').notNull(),
    roundingMinor: moneyColumn('rounding_minor').notNull(),
    positionMinor: moneyColumn('position_minor').notNull(),
    midRate: text('mid_rate').notNull(),
    appliedRate: text('applied_rate').notNull(),
    markupBp: integer('markup_bp').notNull(),
    rateAt: timestamp('rate_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    entryId: uuid('entry_id'),
    createdAt: createdAt(),
  },
  (table) => [
    index('exchange_quotes_user_idx').on(table.userId, table.createdAt.desc()),
    check(
      'exchange_quotes_amounts_positive',
      sql`${table.sellMinor} > 0 and ${table.receiveMinor} > 0`,
    ),
    check('exchange_quotes_two_currencies', sql`${table.sellCurrency} <> ${table.receiveCurrency}`),
    check(
      'exchange_quotes_position_adds_up',
      sql`${table.positionMinor} = ${table.receiveMinor} + ${table.markupMinor} + ${table.roundingMinor}`,
    ),
    check(
      'exchange_quotes_accepted_has_entry',
      sql`(${table.acceptedAt} is null) = (${table.entryId} is null)`,
    ),
  ],
);

/**
 * Exchange markups set by staff over the configured ones (migration 0052, ADR 051): one row
 * per pair, its codes in alphabetical order, applying both ways; no row, the configured one.
 */
export const fxMarkups = pgTable(
  'fx_markups',
  {
    pair: char('pair', { length: 7 }).primaryKey(),
    markupBp: integer('markup_bp').notNull(),
    setByUserId: uuid('set_by_user_id')
      .notNull()
      .references(() => users.id),
    setAt: timestamp('set_at', { withTimezone: true }).defaultNow().notNull(),
    reason: text('reason').notNull(),
  },
  (table) => [
    check(
      'fx_markups_pair_shape',
      sql`${table.pair} ~ '^[A-Z]{3}/[A-Z]{3}$' and substr(${table.pair}, 1, 3) < substr(${table.pair}, 5, 3)`,
    ),
    check('fx_markups_markup_range', sql`${table.markupBp} between 0 and 5000`),
  ],
);

/**
 * A customer's export of their own data (migration 0044, ADR 049): one building per
 * customer (the unique partial index), the zip encrypted under COFFER_DATA_DIR/data-exports.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: dataExportStatuses }).notNull().default('building'),
    sectionsDone: smallint('sections_done').notNull().default(0),
    sectionsTotal: smallint('sections_total').notNull(),
    buildAttempts: smallint('build_attempts').notNull().default(0),
    buildLeaseUntil: timestamp('build_lease_until', { withTimezone: true }),
    storageKey: uuid('storage_key'),
    secretKeyId: text('secret_key_id'),
    sizeBytes: bigint('size_bytes', { mode: 'bigint' }),
    sha256: char('sha256', { length: 64 }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    downloadSessionId: uuid('download_session_id'),
    downloadAllowedUntil: timestamp('download_allowed_until', { withTimezone: true }),
  },
  (table) => [
    check(
      'data_exports_status_known',
      sql`${table.status} IN ('building', 'ready', 'failed', 'expired')`,
    ),
    check(
      'data_exports_ready_has_file',
      sql`${table.status} <> 'ready' OR (${table.storageKey} IS NOT NULL AND ${table.expiresAt} IS NOT NULL AND ${table.sizeBytes} IS NOT NULL)`,
    ),
    uniqueIndex('data_exports_one_building_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'building'`),
    index('data_exports_user_idx').on(table.userId, table.requestedAt.desc()),
    index('data_exports_building_idx')
      .on(table.requestedAt)
      .where(sql`${table.status} = 'building'`),
    index('data_exports_expiry_idx').on(table.expiresAt).where(sql`${table.status} = 'ready'`),
  ],
);
