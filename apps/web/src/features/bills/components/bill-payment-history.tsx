import type { BillPayment } from '@coffer/contracts/bills';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { CardList } from '../../../components/card-list.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useIsPhone } from '../../../lib/use-is-phone.ts';
import { billPaymentsQueryOptions } from '../api.ts';
import { billCategoryLabels } from './bill-categories.ts';

function CompletedBadge() {
  return (
    <Badge color="green" variant="light">
      <Trans>Completed</Trans>
    </Badge>
  );
}

function PaidAt({ payment }: { payment: BillPayment }) {
  return (
    <time dateTime={payment.createdAt} style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(payment.createdAt)}
    </time>
  );
}

function amountOf(payment: BillPayment): string {
  return formatAmountMinor(payment.amountMinor, payment.currency);
}

function PaymentsTable({ payments }: { payments: readonly BillPayment[] }) {
  const { t, i18n } = useLingui();
  return (
    <Table.ScrollContainer minWidth={560} type="native">
      <Table aria-label={t`Bill payments`} verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Category</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Reference</Trans>
            </Table.Th>
            <Table.Th ta="end">
              <Trans>Amount</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Date</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Status</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => (
            <Table.Tr key={payment.id}>
              <Table.Td>{i18n._(billCategoryLabels[payment.category])}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{payment.billerReference}</Table.Td>
              <Table.Td ta="end" style={{ whiteSpace: 'nowrap' }}>
                {amountOf(payment)}
              </Table.Td>
              <Table.Td>
                <PaidAt payment={payment} />
              </Table.Td>
              <Table.Td>
                <CompletedBadge />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function BillerReference({ reference }: { reference: string }) {
  return (
    <Trans>
      Reference <bdi>{reference}</bdi>
    </Trans>
  );
}

/** On a phone each payment is a card: what and how much first, then reference and when. */
function PaymentCards({ payments }: { payments: readonly BillPayment[] }) {
  const { t, i18n } = useLingui();
  return (
    <CardList label={t`Bill payments`}>
      {payments.map((payment) => (
        <Paper component="li" withBorder p="sm" key={payment.id}>
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text fw={600}>{i18n._(billCategoryLabels[payment.category])}</Text>
              <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                {amountOf(payment)}
              </Text>
            </Group>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <BillerReference reference={payment.billerReference} />
            </Text>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed">
                <PaidAt payment={payment} />
              </Text>
              <CompletedBadge />
            </Group>
          </Stack>
        </Paper>
      ))}
    </CardList>
  );
}

/** Bill Payment History, newest first; it refreshes live when a payment is made. */
export function BillPaymentHistory() {
  const { t } = useLingui();
  const headingId = useId();
  const isPhone = useIsPhone();
  const history = useInfiniteQuery(billPaymentsQueryOptions);
  const payments = history.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Bill Payment History</Trans>
      </Title>
      {history.isPending && (
        <Center py="md">
          <Loader aria-label={t`Loading your bill payments`} />
        </Center>
      )}
      {history.isError && (
        <LoadFailed
          title={t`Your bill payments did not load`}
          error={history.error}
          isRetrying={history.isFetching}
          onRetry={() => history.refetch()}
        />
      )}
      {history.isSuccess && payments.length === 0 && (
        <Text c="dimmed">
          <Trans>No bill payments yet</Trans>
        </Text>
      )}
      {payments.length > 0 &&
        (isPhone ? <PaymentCards payments={payments} /> : <PaymentsTable payments={payments} />)}
      {history.hasNextPage && (
        <Group justify="center" mt="md">
          <Button
            variant="default"
            loading={history.isFetchingNextPage}
            onClick={() => history.fetchNextPage()}
          >
            <Trans>Load more</Trans>
          </Button>
        </Group>
      )}
    </Card>
  );
}
