import { roles } from '@coffer/contracts/auth';
import { isCurrencyCode } from '@coffer/contracts/currencies';
import { minorUnitsSchema } from '@coffer/contracts/money';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { z } from 'zod/mini';
import { roleLabels } from '../../../components/staff-role-badge.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

/**
 * One line of an audit event's before/after, in words: "Level: 1 → 3". `link`: where the
 * thing the line names has a page (a dispute, the customer's card), the value opens it.
 */
export type ChangeLine = { label: string; before?: string; after?: string; link?: string };

/** What the events record, in the words of the people who read the log. */
const fieldLabels: Record<string, MessageDescriptor> = {
  isFrozen: msg`Transactions`,
  level: msg`Level`,
  role: msg`Role`,
  status: msg`Status`,
  amountMinor: msg`Amount`,
  feeMinor: msg`Fee`,
  totalMinor: msg`Total`,
  externalReference: msg`Reference`,
  reference: msg`Reference`,
  email: msg`Email`,
  username: msg`Username`,
  timeZone: msg`Time zone`,
  termsVersion: msg`Terms version`,
  problemType: msg`Problem`,
  idType: msg`ID type`,
  lastFour: msg`Card ending`,
  staffNote: msg`Staff note`,
  retentionDays: msg`Kept for (days)`,
  sha256: msg`Document fingerprint`,
  fileSha256: msg`File fingerprint`,
  format: msg`File format`,
  payoutCount: msg`Payouts`,
  downloadCount: msg`Downloads`,
  firstDownloadedAt: msg`First downloaded`,
  day: msg`Day`,
  lineCount: msg`Lines`,
  matched: msg`Matched`,
  matchedPayouts: msg`Payouts matched`,
  depositRequests: msg`Deposit requests`,
  queued: msg`Left to reconcile`,
  kind: msg`Kind`,
  reason: msg`Reason`,
  resolution: msg`Resolution`,
  from: msg`From`,
  to: msg`To`,
  keyId: msg`Key`,
  rotated: msg`Re-encrypted`,
  refused: msg`Refused`,
  remaining: msg`Left under older keys`,
  isComplete: msg`Complete`,
  pair: msg`Pair`,
  markupBp: msg`Markup in basis points`,
  source: msg`Set by`,
};

const statusLabels: Record<string, MessageDescriptor> = {
  pending_approval: msg`pending approval`,
  posted: msg`posted`,
  rejected: msg`rejected`,
};

/** Where an exchange markup came from (fx_markup_set, fx_markup_reset). */
const markupSourceLabels: Record<string, MessageDescriptor> = {
  configured: msg`the configuration`,
  staff: msg`staff`,
};

/** Records whose page is a tab of the customer's page: the line opens it there. */
const customerTabOf: Record<
  string,
  { label: MessageDescriptor; tab: string; tabLink: MessageDescriptor }
> = {
  cardId: { label: msg`Card`, tab: 'cards', tabLink: msg`Cards tab` },
  loanId: { label: msg`Loan`, tab: 'loans', tabLink: msg`Loans tab` },
  submissionId: { label: msg`Verification`, tab: 'kyc', tabLink: msg`KYC tab` },
  messageId: { label: msg`Message`, tab: 'messages', tabLink: msg`Messages tab` },
  refundRequestId: {
    label: msg`Refund`,
    tab: 'requests',
    tabLink: msg`Deposits & adjustments tab`,
  },
  moneyRequestId: {
    label: msg`Deposit or adjustment`,
    tab: 'requests',
    tabLink: msg`Deposits & adjustments tab`,
  },
};

/** The words of values, in the reader's language. */
const valueWords = {
  none: msg`none`,
  disabled: msg`disabled`,
  enabled: msg`enabled`,
  yes: msg`yes`,
  no: msg`no`,
};

/** Machine words (`driver_license`) whose values read as words once spaced. */
const codeFields = new Set(['status', 'problemType', 'idType', 'kind', 'resolution', 'format']);

// The actor and subject columns already name the people these ids are; the currency is
// shown with each amount.
const hiddenFields = new Set(['currency', 'makerUserId', 'requestedByUserId']);

const roleSchema = z.enum(roles);
const disputeReferencePattern = /^REF-[A-Z0-9]{9}$/;
const isoTimePattern = /^\d{4}-\d{2}-\d{2}T/;
const fingerprintShownLength = 12;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `refundRequestId` → "Refund request", for a field this page has no words for yet. */
function labelFromName(field: string): string {
  const words = field
    .replace(/(Id|Minor)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function describeMoney(
  value: unknown,
  owner: Record<string, unknown>,
  i18n: I18n,
): string | undefined {
  const amountMinor = minorUnitsSchema.safeParse(value);
  if (!amountMinor.success || typeof owner.currency !== 'string') return undefined;
  if (!isCurrencyCode(owner.currency)) return undefined;
  if (amountMinor.data === 0n) return i18n._(valueWords.none);
  return formatAmountMinor(amountMinor.data, owner.currency, { currencyDisplay: 'code' });
}

function describeValue(
  field: string,
  value: unknown,
  owner: Record<string, unknown>,
  i18n: I18n,
): string {
  if (value === null || value === undefined) return '—';
  if (field === 'isFrozen' && typeof value === 'boolean') {
    return i18n._(value ? valueWords.disabled : valueWords.enabled);
  }
  if (typeof value === 'boolean') return i18n._(value ? valueWords.yes : valueWords.no);
  const role = roleSchema.safeParse(value);
  if (field === 'role' && role.success) return i18n._(roleLabels[role.data]);
  const status = typeof value === 'string' ? statusLabels[value] : undefined;
  if (field === 'status' && status) return i18n._(status);
  const markupSource = typeof value === 'string' ? markupSourceLabels[value] : undefined;
  if (field === 'source' && markupSource) return i18n._(markupSource);
  if (field.endsWith('Minor')) {
    const money = describeMoney(value, owner, i18n);
    if (money !== undefined) return money;
  }
  if (field.endsWith('Sha256') || field === 'sha256') {
    return `${String(value).slice(0, fingerprintShownLength)}…`;
  }
  if (typeof value === 'string' && isoTimePattern.test(value)) return formatDateTime(value);
  if (typeof value === 'string' && codeFields.has(field)) return value.replaceAll('_', ' ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** The page a line's value opens, where there is one. */
function linkOf(field: string, value: unknown, subjectUserId: string | null): string | undefined {
  if (field === 'reference' && typeof value === 'string' && disputeReferencePattern.test(value)) {
    return `/admin/disputes/${value}`;
  }
  const tab = customerTabOf[field];
  if (tab && subjectUserId) return `/admin/users/${subjectUserId}?tab=${tab.tab}`;
  return undefined;
}

function describeField(
  field: string,
  records: { before: Record<string, unknown>; after: Record<string, unknown> },
  subjectUserId: string | null,
  i18n: I18n,
): ChangeLine | null {
  const tab = customerTabOf[field];
  if (tab) {
    // An id says nothing to a reader: the line opens the record, or is left out.
    const link = linkOf(field, records.after[field] ?? records.before[field], subjectUserId);
    return link ? { label: i18n._(tab.label), after: i18n._(tab.tabLink), link } : null;
  }
  const known = fieldLabels[field];
  const label = known ? i18n._(known) : labelFromName(field);
  const hasBefore = field in records.before;
  const hasAfter = field in records.after;
  const beforeText = hasBefore
    ? describeValue(field, records.before[field], records.before, i18n)
    : undefined;
  const afterText = hasAfter
    ? describeValue(field, records.after[field], records.after, i18n)
    : undefined;
  const link = linkOf(field, records.after[field], subjectUserId);
  const linked = link ? { link } : {};
  // An unchanged value (or one only recorded on one side) is shown once.
  if (beforeText === afterText || beforeText === undefined) {
    return { label, after: afterText, ...linked };
  }
  return { label, before: beforeText, after: afterText, ...linked };
}

/**
 * Turns an audit event's before and after snapshots into readable lines. Known fields get
 * words, money its currency format, records with a page a link to it (`subjectUserId`: the
 * customer whose page holds them); other fields get their name in words, so nothing
 * recorded is hidden from the reader. Words are in the language of `i18n` (the render's).
 */
export function describeChange(
  before: unknown,
  after: unknown,
  i18n: I18n,
  subjectUserId: string | null = null,
): ChangeLine[] {
  if (before === null && after === null) return [];
  const beforeRecord = before ?? {};
  const afterRecord = after ?? {};
  if (!isRecord(beforeRecord) || !isRecord(afterRecord)) {
    return [
      {
        label: i18n._(msg`Change`),
        before: before === null ? undefined : JSON.stringify(before),
        after: after === null ? undefined : JSON.stringify(after),
      },
    ];
  }
  const records = { before: beforeRecord, after: afterRecord };
  const fields = [...new Set([...Object.keys(beforeRecord), ...Object.keys(afterRecord)])];
  return (
    fields
      .filter((field) => !hiddenFields.has(field))
      // A field that is empty on both sides (a deposit without a reference) says nothing.
      .filter(
        (field) => (beforeRecord[field] ?? null) !== null || (afterRecord[field] ?? null) !== null,
      )
      .map((field) => describeField(field, records, subjectUserId, i18n))
      .filter((line) => line !== null)
  );
}
