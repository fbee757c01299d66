import type { BulkPayment, ConfirmBulkPaymentBody } from '@coffer/contracts/bulk-payments';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import {
  Anchor,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import {
  bulkPaymentQueryOptions,
  bulkPaymentsQueryOptions,
  bulkResultPath,
  confirmBulkPayment,
} from '../api.ts';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}

/** Count, total and the day's limit the file is counted against, before it is confirmed. */
function Summary({ file }: { file: BulkPayment }) {
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, file.currency);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
      <Figure label="Payments" value={file.lineCount.toLocaleString('en')} />
      <Figure label="Total" value={money(file.totalMinor)} />
      <Figure
        label="Daily Quick Pay limit"
        value={file.dailyLimitMinor === null ? 'None' : money(file.dailyLimitMinor)}
      />
      <Figure label="Sent today" value={money(file.spentTodayMinor)} />
    </SimpleGrid>
  );
}

/**
 * The confirmation with the step-up code, sent as every money form sends (useMoneyAction):
 * one Idempotency-Key per confirmation, kept across retries until it has its answer.
 */
function ConfirmStep({ file }: { file: BulkPayment }) {
  const queryClient = useQueryClient();
  const [isAsking, setIsAsking] = useState(false);
  const confirm = useMoneyAction({
    send: (body: ConfirmBulkPaymentBody, key) => confirmBulkPayment(file.id, body, key),
    stepUp: { when: 'always', codeSchema: stepUpCodeSchema },
    onSent: (confirmed) => {
      queryClient.setQueryData(bulkPaymentQueryOptions(file.id).queryKey, confirmed);
      return queryClient.invalidateQueries({ queryKey: bulkPaymentsQueryOptions.queryKey });
    },
    // A refusal of the file or the sender (not of the code) goes back to the summary.
    onRefused: () => {
      setIsAsking(false);
      return false;
    },
  });
  if (!isAsking) {
    return (
      <Stack gap="sm">
        <FormAlert message={confirm.failure} />
        <Text size="sm">
          The file's total counts against today's Quick Pay limit as one payment. Each line is paid
          to its recipient; a line that can no longer be paid is refused with the reason.
        </Text>
        <Group>
          <Button
            onClick={() => {
              confirm.reset();
              setIsAsking(true);
            }}
          >
            Confirm and pay
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        confirm.submit({});
      }}
    >
      <Stack gap="sm">
        <FormAlert message={confirm.failure} />
        <StepUpCodeField
          intended={{ purpose: 'bulk_payment', bulkPaymentId: file.id }}
          value={confirm.stepUp.code}
          onChange={confirm.stepUp.setCode}
          onRefused={confirm.stepUp.refuse}
          error={confirm.stepUp.error}
        />
        <Group justify="space-between">
          <Button variant="default" type="button" onClick={() => setIsAsking(false)}>
            Back
          </Button>
          <BusyButton isBusy={confirm.isPending} busyLabel="Confirming...">
            Pay {formatAmountMinor(file.totalMinor, file.currency)}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The live progress of a confirmed file, and its result once every line is settled. */
function PayingProgress({ file }: { file: BulkPayment }) {
  const settled = file.paidCount + file.refusedCount;
  const percent = Math.floor((settled / file.lineCount) * 100);
  const isDone = file.status === 'done';
  return (
    <Stack gap="sm">
      <Progress
        value={percent}
        size="lg"
        aria-label="Payment progress"
        color={isDone && file.refusedCount > 0 ? 'yellow' : undefined}
      />
      <Text size="sm" aria-live="polite">
        {isDone ? 'Done: ' : 'Paying… '}
        {file.paidCount.toLocaleString('en')} paid
        {file.refusedCount > 0 ? `, ${file.refusedCount.toLocaleString('en')} refused` : ''} of{' '}
        {file.lineCount.toLocaleString('en')} ({formatAmountMinor(file.paidMinor, file.currency)}{' '}
        sent)
      </Text>
      {isDone && (
        <Group>
          <Anchor href={bulkResultPath(file.id)} download>
            <Group gap={6}>
              <Download size={16} aria-hidden />
              Download the result (CSV)
            </Group>
          </Anchor>
        </Group>
      )}
    </Stack>
  );
}

/** One file: its summary and confirmation, or its progress and result. */
export function BulkFileCard({ bulkPaymentId }: { bulkPaymentId: string }) {
  const headingId = useId();
  const query = useQuery(bulkPaymentQueryOptions(bulkPaymentId));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={2} id={headingId}>
          {query.data?.status === 'checked' ? 'Check and confirm' : 'Payment file'}
        </Title>
        {query.isPending ? (
          <LoadingState label="Loading the file" />
        ) : query.isError ? (
          <LoadFailed
            error={query.error}
            isRetrying={query.isFetching}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <>
            <Summary file={query.data} />
            {query.data.status === 'checked' ? (
              <ConfirmStep file={query.data} />
            ) : (
              <PayingProgress file={query.data} />
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
