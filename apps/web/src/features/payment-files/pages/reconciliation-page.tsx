import { toCurrencyCode } from '@coffer/contracts/currencies';
import { formatMoney } from '@coffer/contracts/money';
import {
  type CardSettlementImport,
  type PayoutBatch,
  type ReconciliationItem,
  type ResolveReconciliationBody,
  reconciliationKindLabels,
  type StatementImport,
} from '@coffer/contracts/payment-files';
import type { StaffPayout } from '@coffer/contracts/payouts';
import { todayUtc } from '@coffer/contracts/statements';
import {
  Alert,
  Anchor,
  Checkbox,
  FileInput,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { useIsSandbox } from '../../../components/sandbox-banner.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useMe } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import {
  batchFilePath,
  createPayoutBatch,
  payoutBatchesQueryOptions,
  pendingPayoutsQueryOptions,
  reconciliationQueryOptions,
  resolveItem,
  sandboxSettlementFilePath,
  uploadCardSettlements,
  uploadStatement,
} from '../api.ts';
import { countOf } from '../counts.ts';

const money = (amountMinor: bigint, currency: string) =>
  formatMoney({ amountMinor, currency: toCurrencyCode(currency) }, { currencyDisplay: 'code' });

function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminQueryRoot });
}

/** Pending bank payouts, chosen by currency, sent together as one batch file (admins). */
function NewBatch({ payouts }: { payouts: StaffPayout[] }) {
  const refresh = useRefreshAll();
  const [chosen, setChosen] = useState<string[]>([]);
  const bank = payouts.filter((payout) => payout.destination.method === 'bank');
  const currency = bank.find((payout) => payout.id === chosen[0])?.currency;
  const create = useMutation({
    mutationFn: () => createPayoutBatch(chosen),
    onSuccess: async (batch) => {
      setChosen([]);
      showSuccessToast(`${batch.payoutCount} payouts sent as batch ${batch.reference}.`);
      window.location.assign(batchFilePath(batch.id));
      await refresh();
    },
  });
  if (bank.length === 0) return <Text>No bank payouts are waiting.</Text>;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={560} type="native">
        <Table aria-label="Bank payouts waiting">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Send</Table.Th>
              <Table.Th>Customer</Table.Th>
              <Table.Th>To</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {bank.map((payout) => {
              const destination = payout.destination;
              return (
                <Table.Tr key={payout.id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Send ${payout.username}'s ${money(payout.amountMinor, payout.currency)}`}
                      checked={chosen.includes(payout.id)}
                      disabled={currency !== undefined && payout.currency !== currency}
                      onChange={(event) => {
                        const isChecked = event.currentTarget.checked;
                        setChosen((ids) =>
                          isChecked ? [...ids, payout.id] : ids.filter((id) => id !== payout.id),
                        );
                      }}
                    />
                  </Table.Td>
                  <Table.Td>{payout.username}</Table.Td>
                  <Table.Td>
                    {destination.method === 'bank'
                      ? `${destination.holderName}, ${destination.accountNumber}`
                      : ''}
                  </Table.Td>
                  <Table.Td ta="right">{money(payout.amountMinor, payout.currency)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <FormAlert message={create.error ? errorMessage(create.error) : null} />
      <Group>
        <BusyButton
          type="button"
          isBusy={create.isPending}
          busyLabel="Sending..."
          disabled={chosen.length === 0}
          onClick={() => create.mutate()}
        >
          {`Send ${chosen.length} as a batch file${currency === 'EUR' ? ' (pain.001)' : currency ? ' (CSV)' : ''}`}
        </BusyButton>
      </Group>
    </Stack>
  );
}

function BatchList({ batches, isAdmin }: { batches: PayoutBatch[]; isAdmin: boolean }) {
  if (batches.length === 0) return <Text>No batches yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table aria-label="Payout batches">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Reference</Table.Th>
            <Table.Th>Payouts</Table.Th>
            <Table.Th ta="right">Total</Table.Th>
            <Table.Th>File</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {batches.map((batch) => (
            <Table.Tr key={batch.id}>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {batch.reference}
                </Text>
                <Text size="xs" c="dimmed">
                  Sent {formatDateTime(batch.createdAt)} by {batch.createdBy.username}
                </Text>
              </Table.Td>
              <Table.Td>{batch.payoutCount}</Table.Td>
              <Table.Td ta="right">{money(batch.totalMinor, batch.currency)}</Table.Td>
              <Table.Td>
                {batch.firstDownloadedAt && (
                  <Text size="xs" fw={600}>
                    Already downloaded {formatDateTime(batch.firstDownloadedAt)} by{' '}
                    {batch.firstDownloadedBy?.username}: these payouts were sent. Downloading again
                    is recorded.
                  </Text>
                )}
                {isAdmin && (
                  <Anchor href={batchFilePath(batch.id)} download size="sm">
                    {`Download ${batch.format === 'pain.001' ? 'pain.001' : 'CSV'}`}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * A payment file chosen and sent as it is; the server refuses it whole, naming the line
 * and column, or answers what it imported.
 */
function FileUpload<T>({
  label,
  accept,
  buttonLabel,
  upload: send,
  summary,
  children,
}: {
  label: string;
  accept: string;
  buttonLabel: string;
  upload: (file: File) => Promise<T>;
  summary: (imported: T) => ReactNode;
  children?: ReactNode;
}) {
  const refresh = useRefreshAll();
  const [file, setFile] = useState<File | null>(null);
  const [imported, setImported] = useState<T | null>(null);
  const upload = useMutation({
    mutationFn: send,
    onSuccess: async (result) => {
      setImported(result);
      setFile(null);
      await refresh();
    },
  });
  return (
    <Stack gap="sm">
      {children}
      <FileInput label={label} accept={accept} value={file} onChange={setFile} clearable />
      <FormAlert message={upload.error ? errorMessage(upload.error) : null} />
      {imported !== null && summary(imported)}
      <Group>
        <BusyButton
          type="button"
          isBusy={upload.isPending}
          busyLabel="Importing..."
          disabled={!file}
          onClick={() => file && upload.mutate(file)}
        >
          {buttonLabel}
        </BusyButton>
      </Group>
    </Stack>
  );
}

function StatementUpload() {
  return (
    <FileUpload
      label="camt.053 statement of the institution's account"
      accept=".xml,application/xml,text/xml"
      buttonLabel="Import statement"
      upload={uploadStatement}
      summary={(imported: StatementImport) => (
        <Alert color="green" title={`Statement ${imported.statementReference} imported`}>
          {countOf(imported.entryCount, 'entry', 'entries')}:{' '}
          {countOf(imported.depositRequestCount, 'deposit request', 'deposit requests')},{' '}
          {countOf(imported.matchedPayoutCount, 'payout', 'payouts')} matched,{' '}
          {imported.queuedCount} waiting above.
        </Alert>
      )}
    />
  );
}

/** The card processor's settlement file of a day; in a sandbox, its issuer's file too. */
function CardSettlementUpload() {
  const isSandbox = useIsSandbox();
  const [day, setDay] = useState(todayUtc());
  return (
    <FileUpload
      label="Settlement file (CSV) of that day"
      accept=".csv,text/csv"
      buttonLabel="Import settlements"
      upload={(file) => uploadCardSettlements(file, day)}
      summary={(imported: CardSettlementImport) => (
        <Alert color="green" title={`Card settlements of ${imported.day} imported`}>
          {countOf(imported.lineCount, 'settlement', 'settlements')}: {imported.matchedCount}{' '}
          matched, {imported.queuedCount} waiting above.
        </Alert>
      )}
    >
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label="Day settled"
          value={day}
          max={todayUtc()}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value) setDay(value);
          }}
        />
        {isSandbox && (
          <Anchor href={sandboxSettlementFilePath(day)} download size="sm" pb={8}>
            Download the sandbox issuer's file of this day
          </Anchor>
        )}
      </Group>
    </FileUpload>
  );
}

function ItemCard({ item }: { item: ReconciliationItem }) {
  const refresh = useRefreshAll();
  const [note, setNote] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const resolve = useMutation({
    mutationFn: (action: ResolveReconciliationBody['action']) =>
      resolveItem(item, action === 'deposit' ? { action, accountNumber, note } : { action, note }),
    onSuccess: async (resolved) => {
      showSuccessToast(
        resolved.resolution === 'deposit' || resolved.resolution === 'refund'
          ? `${resolved.resolution === 'refund' ? 'Refund' : 'Deposit'} request made: it waits for a second admin.`
          : 'Resolved with a note.',
      );
      await refresh();
    },
  });
  const title = `${reconciliationKindLabels[item.kind]}: ${money(item.amountMinor, item.currency)}`;
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {/* Processors' ids are long and unbroken: they wrap anywhere on a phone. */}
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {item.reason}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {[
            item.bookingDate && `Booked ${item.bookingDate}`,
            item.counterparty,
            item.remittance && `“${item.remittance}”`,
            item.bankReference && `ref. ${item.bankReference}`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        <Textarea
          label="Note"
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          autosize
          minRows={1}
        />
        {item.kind === 'unmatched_credit' && (
          <TextInput
            label="Credit to account number (optional)"
            description="Makes a deposit request that a second admin approves"
            value={accountNumber}
            onChange={(event) => setAccountNumber(event.currentTarget.value)}
            inputMode="numeric"
          />
        )}
        <FormAlert message={resolve.error ? errorMessage(resolve.error) : null} />
        <Group>
          {accountNumber.trim() !== '' ? (
            <BusyButton
              type="button"
              isBusy={resolve.isPending}
              busyLabel="Requesting..."
              onClick={() => resolve.mutate('deposit')}
            >
              Request deposit
            </BusyButton>
          ) : (
            <BusyButton
              type="button"
              variant="light"
              isBusy={resolve.isPending}
              busyLabel="Resolving..."
              onClick={() => resolve.mutate('note')}
            >
              Resolve with note
            </BusyButton>
          )}
          {item.refundableMinor !== null && (
            <BusyButton
              type="button"
              variant="light"
              isBusy={resolve.isPending}
              busyLabel="Requesting..."
              onClick={() => resolve.mutate('refund')}
            >
              {`Refund the cardholder ${money(item.refundableMinor, item.currency)}`}
            </BusyButton>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Payment files and reconciliation (issue #30): admins send waiting bank payouts as one
 * batch file, staff import the bank's statements, and what did not match waits here with
 * its reason until someone resolves it.
 */
export function ReconciliationPage() {
  usePageTitle('Reconciliation');
  const me = useMe();
  const isAdmin = me?.role === 'admin';
  const payouts = useQuery({ ...pendingPayoutsQueryOptions, enabled: isAdmin });
  const batches = useQuery(payoutBatchesQueryOptions);
  const items = useQuery(reconciliationQueryOptions);
  const failed = [payouts, batches, items].find((query) => query.isError);
  return (
    <Stack gap="lg">
      <Title order={1}>Reconciliation</Title>
      {failed && (
        <LoadFailed
          title="This page did not load"
          error={failed.error}
          isRetrying={failed.isFetching}
          onRetry={() => failed.refetch()}
        />
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="queue-title">
        <Title order={2} size="h4" id="queue-title" mb="sm">
          {`Waiting (${items.data?.items.length ?? 0})`}
        </Title>
        {items.data?.items.length === 0 ? (
          <Text>Nothing to reconcile.</Text>
        ) : (
          <Stack gap="sm">
            {items.data?.items.map((item) => (
              <ItemCard key={item.id} item={item} />
            ))}
          </Stack>
        )}
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="statement-title">
        <Title order={2} size="h4" id="statement-title" mb="sm">
          Bank statement
        </Title>
        <StatementUpload />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="card-settlements-title">
        <Title order={2} size="h4" id="card-settlements-title" mb="sm">
          Card settlement file
        </Title>
        <CardSettlementUpload />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="batches-title">
        <Title order={2} size="h4" id="batches-title" mb="sm">
          Payout batches
        </Title>
        <Stack gap="md">
          {isAdmin && payouts.data && <NewBatch payouts={payouts.data.items} />}
          {batches.data && <BatchList batches={batches.data.items} isAdmin={isAdmin} />}
        </Stack>
      </Paper>
    </Stack>
  );
}
