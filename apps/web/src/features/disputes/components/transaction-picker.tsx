import type { DisputeTransaction } from '@coffer/contracts/disputes';
import { entryKindLabel } from '@coffer/contracts/ledger';
import { useQuery } from '@tanstack/react-query';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { disputableTransactionsQueryOptions } from '../api.ts';

function labelOf(transaction: DisputeTransaction): string {
  const amount = formatAmountMinor(transaction.amountMinor, transaction.currency, {
    signDisplay: 'always',
  });
  const disputed = transaction.disputeReference
    ? ` · disputed (${transaction.disputeReference})`
    : '';
  return `${formatDate(transaction.createdAt)} · ${entryKindLabel(transaction.kind)} · ${amount}${disputed}`;
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
  const transactions = useQuery(disputableTransactionsQueryOptions);
  const listed = transactions.data?.items ?? [];
  const items =
    chosen && !listed.some((item) => item.id === chosen.id) ? [chosen, ...listed] : listed;
  const placeholder = transactions.isPending
    ? 'Loading your transactions…'
    : items.length === 0
      ? 'No transactions yet'
      : 'None: I will type the amount and recipient';
  return (
    <ChoiceSelect
      label="Transaction (optional)"
      description="Start from the transaction: the form then asks only what fits it"
      placeholder={placeholder}
      data={items.map((item) => ({ value: item.id, label: labelOf(item) }))}
      isOptional
      value={value}
      onChange={onChange}
    />
  );
}
