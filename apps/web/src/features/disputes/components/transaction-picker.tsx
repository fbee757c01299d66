import type { DisputeTransaction } from '@coffer/contracts/disputes';
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { entryKindLabel } from '../../../lib/entry-kinds.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { disputableTransactionsQueryOptions } from '../api.ts';

function labelOf(i18n: I18n, transaction: DisputeTransaction): string {
  const amount = formatAmountMinor(transaction.amountMinor, transaction.currency, {
    signDisplay: 'always',
  });
  const date = formatDate(transaction.createdAt);
  const kind = entryKindLabel(i18n, transaction.kind);
  const reference = transaction.disputeReference;
  return reference
    ? i18n._(msg`${date} · ${kind} · ${amount} · disputed (${reference})`)
    : `${date} · ${kind} · ${amount}`;
}

/**
 * Which transaction the dispute is about: the customer's latest entries (at most 50,
 * newest first), and the one a row's Dispute button chose when it is older. Choosing one
 * changes what the form asks, so the page keeps the choice in its address.
 */
export function TransactionPicker({
  value,
  chosen,
  onChange,
}: {
  value: string | null;
  chosen: DisputeTransaction | null;
  onChange: (entryId: string | null) => void;
}) {
  const { t, i18n } = useLingui();
  const transactions = useQuery(disputableTransactionsQueryOptions);
  const listed = transactions.data?.items ?? [];
  const items =
    chosen && !listed.some((item) => item.id === chosen.id) ? [chosen, ...listed] : listed;
  const placeholder = transactions.isPending
    ? t`Loading your transactions…`
    : items.length === 0
      ? t`No transactions yet`
      : t`None: I will type the amount and recipient`;
  return (
    <ChoiceSelect
      label={t`Transaction (optional)`}
      description={t`Start from the transaction: the form then asks only what fits it`}
      placeholder={placeholder}
      data={items.map((item) => ({ value: item.id, label: labelOf(i18n, item) }))}
      isOptional
      value={value}
      onChange={onChange}
    />
  );
}
