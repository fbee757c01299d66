import { useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState, LoadMore, NothingFound } from '../../../components/query-states.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { entryKindLabel } from '../../../lib/entry-kinds.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { customerTransactionsQueryOptions } from '../api.ts';

type Transaction = {
  lineId: string;
  kind: string;
  /** As the customer reads it: a Quick Pay names the other customer, masked. */
  description: string;
  amountMinor: bigint;
  currency: string;
  createdAt: string;
};

/** Credits in green with a plus, debits in red with a minus: the sign says it without colour. */
function SignedAmount({ transaction }: { transaction: Transaction }) {
  const { amountMinor } = transaction;
  const color =
    amountMinor > 0n
      ? 'var(--mantine-color-green-light-color)'
      : amountMinor < 0n
        ? 'var(--mantine-color-red-light-color)'
        : undefined;
  return (
    <Text size="sm" fw={600} c={color} style={{ whiteSpace: 'nowrap' }}>
      {formatAmountMinor(amountMinor, transaction.currency, {
        currencyDisplay: 'code',
        signDisplay: 'exceptZero',
      })}
    </Text>
  );
}

function useColumns(): Column<Transaction>[] {
  const { t, i18n } = useLingui();
  return [
    {
      key: 'description',
      header: t`Description`,
      cell: (transaction) => transaction.description,
    },
    {
      key: 'kind',
      header: t`Type`,
      cell: (transaction) => entryKindLabel(i18n, transaction.kind),
    },
    {
      key: 'createdAt',
      header: t`Date`,
      cell: (transaction) => (
        <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(transaction.createdAt)}</span>
      ),
    },
    {
      key: 'amount',
      header: t`Amount`,
      align: 'right',
      cell: (transaction) => <SignedAmount transaction={transaction} />,
    },
  ];
}

/** The customer's ledger lines, newest first, a page at a time. */
export function TransactionsTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const columns = useColumns();
  const transactions = useInfiniteQuery(customerTransactionsQueryOptions(userId));
  if (transactions.isPending) return <LoadingState label={t`Loading transactions`} />;
  if (transactions.isError) {
    return (
      <LoadFailed
        title={t`The transactions did not load`}
        error={transactions.error}
        isRetrying={transactions.isFetching}
        onRetry={() => transactions.refetch()}
      />
    );
  }
  const rows = transactions.data.pages.flatMap((page) => page.items);
  if (rows.length === 0) return <NothingFound title={t`No transactions yet`} />;
  return (
    <>
      <DataTable
        label={t`Transactions`}
        columns={columns}
        rows={rows}
        rowKey={(transaction) => transaction.lineId}
        minWidth={640}
      />
      <LoadMore
        hasNextPage={transactions.hasNextPage}
        isFetchingNextPage={transactions.isFetchingNextPage}
        onLoadMore={() => transactions.fetchNextPage()}
      />
    </>
  );
}
