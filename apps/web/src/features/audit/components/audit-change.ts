import { roles } from '@coffer/contracts/auth';
import { isCurrencyCode } from '@coffer/contracts/currencies';
import { minorUnitsSchema } from '@coffer/contracts/money';
import { z } from 'zod/mini';
import { roleLabels } from '../../../components/staff-role-badge.tsx';
import { formatAmountMinor } from '../../../lib/money.ts';

/** One line of an audit event's before/after, in words: "Level: 1 → 3". */
export type ChangeLine = { label: string; before?: string; after?: string };

const fieldLabels: Record<string, string> = {
  isFrozen: 'Transactions',
  level: 'Level',
  role: 'Role',
  status: 'Status',
  amountMinor: 'Amount',
  externalReference: 'Reference',
  email: 'Email',
};

const statusLabels: Record<string, string> = {
  pending_approval: 'pending approval',
  posted: 'posted',
  rejected: 'rejected',
};

// Ids mean nothing to a reader and the currency is shown with the amount.
const hiddenFields = new Set(['currency', 'makerUserId']);

const roleSchema = z.enum(roles);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(field: string, value: unknown, owner: Record<string, unknown>): string {
  if (value === null || value === undefined) return '—';
  if (field === 'isFrozen' && typeof value === 'boolean') return value ? 'disabled' : 'enabled';
  const role = roleSchema.safeParse(value);
  if (field === 'role' && role.success) return roleLabels[role.data];
  if (field === 'status' && typeof value === 'string') return statusLabels[value] ?? value;
  const amountMinor = field === 'amountMinor' ? minorUnitsSchema.safeParse(value) : undefined;
  if (
    amountMinor?.success &&
    typeof owner.currency === 'string' &&
    isCurrencyCode(owner.currency)
  ) {
    return formatAmountMinor(amountMinor.data, owner.currency, { currencyDisplay: 'code' });
  }
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * Turns an audit event's before and after snapshots into readable lines. Known fields get
 * words and money gets its currency format; anything else is shown as compact JSON, so
 * nothing recorded is hidden from the reader.
 */
export function describeChange(before: unknown, after: unknown): ChangeLine[] {
  if (before === null && after === null) return [];
  const beforeRecord = before ?? {};
  const afterRecord = after ?? {};
  if (!isRecord(beforeRecord) || !isRecord(afterRecord)) {
    return [
      {
        label: 'Change',
        before: before === null ? undefined : JSON.stringify(before),
        after: after === null ? undefined : JSON.stringify(after),
      },
    ];
  }
  const fields = [...new Set([...Object.keys(beforeRecord), ...Object.keys(afterRecord)])];
  return (
    fields
      .filter((field) => !hiddenFields.has(field))
      // A field that is empty on both sides (a deposit without a reference) says nothing.
      .filter(
        (field) => (beforeRecord[field] ?? null) !== null || (afterRecord[field] ?? null) !== null,
      )
      .map((field) => {
        const label = fieldLabels[field] ?? field;
        const hasBefore = field in beforeRecord;
        const hasAfter = field in afterRecord;
        const beforeText = hasBefore
          ? describeValue(field, beforeRecord[field], beforeRecord)
          : undefined;
        const afterText = hasAfter
          ? describeValue(field, afterRecord[field], afterRecord)
          : undefined;
        // An unchanged value (or one only recorded on one side) is shown once.
        if (beforeText === afterText || beforeText === undefined)
          return { label, after: afterText };
        return { label, before: beforeText, after: afterText };
      })
  );
}
