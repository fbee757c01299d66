import type {
  CardSettlementImport,
  PayoutBatch,
  ReconciliationItem,
  ReconciliationKind,
  ResolveReconciliationBody,
  StatementImport,
} from '@coffer/contracts/payment-files';
import type { StaffPayout } from '@coffer/contracts/payouts';
import { todayUtc } from '@coffer/contracts/statements';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { formatAmountMinor } from '../../../lib/money.ts';
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

const money = (amountMinor: bigint, currency: string) =>
  formatAmountMinor(amountMinor, currency, { currencyDisplay: 'code' });

const reconciliationKindLabels: Record<ReconciliationKind, MessageDescriptor> = {
  unmatched_credit: msg`Credit matching no customer`,
  unmatched_debit: msg`Debit matching no payout`,
  amount_difference: msg`Amount differs from the payout`,
  missing_payout: msg`Sent payout missing from the statements`,
  unknown_settlement: msg`Card settlement we have no record of`,
  settlement_difference: msg`Card settlement differs from ours`,
  missing_settlement: msg`Card settlement missing from the file`,
};

function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adminQueryRoot });
}

/** Pending bank payouts, chosen by currency, sent together as one batch file (admins). */
function NewBatch({ payouts }: { payouts: StaffPayout[] }) {
  const { t } = useLingui();
  const refresh = useRefreshAll();
  const [chosen, setChosen] = useState<string[]>([]);
  const bank = payouts.filter((payout) => payout.destination.method === 'bank');
  const currency = bank.find((payout) => payout.id === chosen[0])?.currency;
  const create = useMutation({
    mutationFn: () => createPayoutBatch(chosen),
    onSuccess: async (batch) => {
      setChosen([]);
      const { payoutCount, reference } = batch;
      showSuccessToast(
        t`${plural(payoutCount, { one: '# payout sent', other: '# payouts sent' })} as batch ${reference}.`,
      );
      window.location.assign(batchFilePath(batch.id));
      await refresh();
    },
  });
  if (bank.length === 0) {
    return (
      <Text>
        <Trans>No bank payouts are waiting.</Trans>
      </Text>
    );
  }
  const count = chosen.length;
  const sendLabel =
    currency === 'EUR'
      ? t`Send ${count} as a batch file (pain.001)`
      : currency
        ? t`Send ${count} as a batch file (CSV)`
        : t`Send ${count} as a batch file`;
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={560} type="native">
        <Table aria-label={t`Bank payouts waiting`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Send</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Customer</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>To</Trans>
              </Table.Th>
              <Table.Th ta="right">
                <Trans>Amount</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {bank.map((payout) => {
              const destination = payout.destination;
              const { username } = payout;
              const amount = money(payout.amountMinor, payout.currency);
              return (
                <Table.Tr key={payout.id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={t`Send ${username}'s ${amount}`}
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
          busyLabel={t`Sending...`}
          disabled={chosen.length === 0}
          onClick={() => create.mutate()}
        >
          {sendLabel}
        </BusyButton>
      </Group>
    </Stack>
  );
}

function BatchRow({ batch, isAdmin }: { batch: PayoutBatch; isAdmin: boolean }) {
  const sentAt = formatDateTime(batch.createdAt);
  const sender = batch.createdBy.username;
  const downloadedAt = batch.firstDownloadedAt && formatDateTime(batch.firstDownloadedAt);
  const downloader = batch.firstDownloadedBy?.username ?? '';
  const format = batch.format === 'pain.001' ? 'pain.001' : 'CSV';
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {batch.reference}
        </Text>
        <Text size="xs" c="dimmed">
          <Trans>
            Sent {sentAt} by {sender}
          </Trans>
        </Text>
      </Table.Td>
      <Table.Td>{batch.payoutCount}</Table.Td>
      <Table.Td ta="right">{money(batch.totalMinor, batch.currency)}</Table.Td>
      <Table.Td>
        {downloadedAt && (
          <Text size="xs" fw={600}>
            <Trans>
              Already downloaded {downloadedAt} by {downloader}: these payouts were sent.
              Downloading again is recorded.
            </Trans>
          </Text>
        )}
        {isAdmin && (
          <Anchor href={batchFilePath(batch.id)} download size="sm">
            <Trans>Download {format}</Trans>
          </Anchor>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function BatchList({ batches, isAdmin }: { batches: PayoutBatch[]; isAdmin: boolean }) {
  const { t } = useLingui();
  if (batches.length === 0) {
    return (
      <Text>
        <Trans>No batches yet.</Trans>
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640} type="native">
      <Table aria-label={t`Payout batches`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Reference</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Payouts</Trans>
            </Table.Th>
            <Table.Th ta="right">
              <Trans>Total</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>File</Trans>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {batches.map((batch) => (
            <BatchRow key={batch.id} batch={batch} isAdmin={isAdmin} />
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
  const { t } = useLingui();
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
          busyLabel={t`Importing...`}
          disabled={!file}
          onClick={() => file && upload.mutate(file)}
        >
          {buttonLabel}
        </BusyButton>
      </Group>
    </Stack>
  );
}

function StatementImported({ imported }: { imported: StatementImport }) {
  const { t } = useLingui();
  const { statementReference, entryCount, depositRequestCount, matchedPayoutCount, queuedCount } =
    imported;
  return (
    <Alert color="green" title={t`Statement ${statementReference} imported`}>
      {t`${plural(entryCount, { one: '# entry', other: '# entries' })}: ${plural(depositRequestCount, { one: '# deposit request', other: '# deposit requests' })}, ${plural(matchedPayoutCount, { one: '# payout', other: '# payouts' })} matched, ${queuedCount} waiting above.`}
    </Alert>
  );
}

function StatementUpload() {
  const { t } = useLingui();
  return (
    <FileUpload
      label={t`camt.053 statement of the institution's account`}
      accept=".xml,application/xml,text/xml"
      buttonLabel={t`Import statement`}
      upload={uploadStatement}
      summary={(imported: StatementImport) => <StatementImported imported={imported} />}
    />
  );
}

function SettlementsImported({ imported }: { imported: CardSettlementImport }) {
  const { t } = useLingui();
  const { day, lineCount, matchedCount, queuedCount } = imported;
  return (
    <Alert color="green" title={t`Card settlements of ${day} imported`}>
      {t`${plural(lineCount, { one: '# settlement', other: '# settlements' })}: ${matchedCount} matched, ${queuedCount} waiting above.`}
    </Alert>
  );
}

/** The card processor's settlement file of a day; in a sandbox, its issuer's file too. */
function CardSettlementUpload() {
  const { t } = useLingui();
  const isSandbox = useIsSandbox();
  const [day, setDay] = useState(todayUtc());
  return (
    <FileUpload
      label={t`Settlement file (CSV) of that day`}
      accept=".csv,text/csv"
      buttonLabel={t`Import settlements`}
      upload={(file) => uploadCardSettlements(file, day)}
      summary={(imported: CardSettlementImport) => <SettlementsImported imported={imported} />}
    >
      <Group align="flex-end" gap="sm">
        <TextInput
          type="date"
          label={t`Day settled`}
          value={day}
          max={todayUtc()}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value) setDay(value);
          }}
        />
        {isSandbox && (
          <Anchor href={sandboxSettlementFilePath(day)} download size="sm" pb={8}>
            <Trans>Download the sandbox issuer's file of this day</Trans>
          </Anchor>
        )}
      </Group>
    </FileUpload>
  );
}

/** Where the statement line came from: its date, who, their words and the bank's reference. */
function itemSource(item: ReconciliationItem, t: ReturnType<typeof useLingui>['t']): string {
  const { bookingDate, remittance, bankReference } = item;
  return [
    bookingDate && t`Booked ${bookingDate}`,
    item.counterparty,
    remittance && t`“${remittance}”`,
    bankReference && t`ref. ${bankReference}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

function ItemCard({ item }: { item: ReconciliationItem }) {
  const { t, i18n } = useLingui();
  const refresh = useRefreshAll();
  const [note, setNote] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const resolve = useMutation({
    mutationFn: (action: ResolveReconciliationBody['action']) =>
      resolveItem(item, action === 'deposit' ? { action, accountNumber, note } : { action, note }),
    onSuccess: async (resolved) => {
      showSuccessToast(
        resolved.resolution === 'refund'
          ? t`Refund request made: it waits for a second admin.`
          : resolved.resolution === 'deposit'
            ? t`Deposit request made: it waits for a second admin.`
            : t`Resolved with a note.`,
      );
      await refresh();
    },
  });
  const kind = i18n._(reconciliationKindLabels[item.kind]);
  const amount = money(item.amountMinor, item.currency);
  const title = t`${kind}: ${amount}`;
  const refundable =
    item.refundableMinor === null ? '' : money(item.refundableMinor, item.currency);
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
          {itemSource(item, t)}
        </Text>
        <Textarea
          label={t`Note`}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          autosize
          minRows={1}
        />
        {item.kind === 'unmatched_credit' && (
          <TextInput
            label={t`Credit to account number (optional)`}
            description={t`Makes a deposit request that a second admin approves`}
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
              busyLabel={t`Requesting...`}
              onClick={() => resolve.mutate('deposit')}
            >
              <Trans>Request deposit</Trans>
            </BusyButton>
          ) : (
            <BusyButton
              type="button"
              variant="light"
              isBusy={resolve.isPending}
              busyLabel={t`Resolving...`}
              onClick={() => resolve.mutate('note')}
            >
              <Trans>Resolve with note</Trans>
            </BusyButton>
          )}
          {item.refundableMinor !== null && (
            <BusyButton
              type="button"
              variant="light"
              isBusy={resolve.isPending}
              busyLabel={t`Requesting...`}
              onClick={() => resolve.mutate('refund')}
            >
              <Trans>Refund the cardholder {refundable}</Trans>
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
  const { t } = useLingui();
  usePageTitle(t`Reconciliation`);
  const me = useMe();
  const isAdmin = me?.role === 'admin';
  const payouts = useQuery({ ...pendingPayoutsQueryOptions, enabled: isAdmin });
  const batches = useQuery(payoutBatchesQueryOptions);
  const items = useQuery(reconciliationQueryOptions);
  const failed = [payouts, batches, items].find((query) => query.isError);
  const waitingCount = items.data?.items.length ?? 0;
  return (
    <Stack gap="lg">
      <Title order={1}>
        <Trans>Reconciliation</Trans>
      </Title>
      {failed && (
        <LoadFailed
          title={t`This page did not load`}
          error={failed.error}
          isRetrying={failed.isFetching}
          onRetry={() => failed.refetch()}
        />
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="queue-title">
        <Title order={2} size="h4" id="queue-title" mb="sm">
          <Trans>Waiting ({waitingCount})</Trans>
        </Title>
        {items.data?.items.length === 0 ? (
          <Text>
            <Trans>Nothing to reconcile.</Trans>
          </Text>
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
          <Trans>Bank statement</Trans>
        </Title>
        <StatementUpload />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="card-settlements-title">
        <Title order={2} size="h4" id="card-settlements-title" mb="sm">
          <Trans>Card settlement file</Trans>
        </Title>
        <CardSettlementUpload />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="batches-title">
        <Title order={2} size="h4" id="batches-title" mb="sm">
          <Trans>Payout batches</Trans>
        </Title>
        <Stack gap="md">
          {isAdmin && payouts.data && <NewBatch payouts={payouts.data.items} />}
          {batches.data && <BatchList batches={batches.data.items} isAdmin={isAdmin} />}
        </Stack>
      </Paper>
    </Stack>
  );
}
