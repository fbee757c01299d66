import type { BulkPayment, ConfirmBulkPaymentBody } from '@coffer/contracts/bulk-payments';
import { stepUpCodeSchema } from '@coffer/contracts/step-up';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { intlLocale } from '../../../lib/i18n.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { StepUpCodeField } from '../../step-up/index.ts';
import {
  bulkPaymentQueryOptions,
  bulkPaymentsQueryOptions,
  bulkResultPath,
  confirmBulkPayment,
} from '../api.ts';

/** A count as the page's language writes it ("10,000", "10.000"). */
function formatCount(count: number): string {
  return new Intl.NumberFormat(intlLocale()).format(count);
}

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
  const { t } = useLingui();
  const money = (amountMinor: bigint) => formatAmountMinor(amountMinor, file.currency);
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
      <Figure label={t`Payments`} value={formatCount(file.lineCount)} />
      <Figure label={t`Total`} value={money(file.totalMinor)} />
      <Figure
        label={t`Daily Quick Pay limit`}
        value={file.dailyLimitMinor === null ? t`None` : money(file.dailyLimitMinor)}
      />
      <Figure label={t`Sent today`} value={money(file.spentTodayMinor)} />
    </SimpleGrid>
  );
}

/**
 * The confirmation with the step-up code, sent as every money form sends (useMoneyAction):
 * one Idempotency-Key per confirmation, kept across retries until it has its answer.
 */
function ConfirmStep({ file }: { file: BulkPayment }) {
  const { t } = useLingui();
  const total = formatAmountMinor(file.totalMinor, file.currency);
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
          <Trans>
            The file's total counts against today's Quick Pay limit as one payment. Each line is
            paid to its recipient; a line that can no longer be paid is refused with the reason.
          </Trans>
        </Text>
        <Group>
          <Button
            onClick={() => {
              confirm.reset();
              setIsAsking(true);
            }}
          >
            <Trans>Confirm and pay</Trans>
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
            <Trans>Back</Trans>
          </Button>
          <BusyButton isBusy={confirm.isPending} busyLabel={t`Confirming...`}>
            <Trans>Pay {total}</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The live progress of a confirmed file, and its result once every line is settled. */
/** "Done: 48 paid, 2 refused of 50 ($37.25 sent)", as one sentence of the page's language. */
function ProgressLine({ file }: { file: BulkPayment }) {
  const { t } = useLingui();
  const paid = formatCount(file.paidCount);
  const refused = formatCount(file.refusedCount);
  const total = formatCount(file.lineCount);
  const sent = formatAmountMinor(file.paidMinor, file.currency);
  if (file.status === 'done') {
    return file.refusedCount > 0
      ? t`Done: ${paid} paid, ${refused} refused of ${total} (${sent} sent)`
      : t`Done: ${paid} paid of ${total} (${sent} sent)`;
  }
  return file.refusedCount > 0
    ? t`Paying… ${paid} paid, ${refused} refused of ${total} (${sent} sent)`
    : t`Paying… ${paid} paid of ${total} (${sent} sent)`;
}

function PayingProgress({ file }: { file: BulkPayment }) {
  const { t } = useLingui();
  const settled = file.paidCount + file.refusedCount;
  const percent = Math.floor((settled / file.lineCount) * 100);
  const isDone = file.status === 'done';
  return (
    <Stack gap="sm">
      <Progress
        value={percent}
        size="lg"
        aria-label={t`Payment progress`}
        color={isDone && file.refusedCount > 0 ? 'yellow' : undefined}
      />
      <Text size="sm" aria-live="polite">
        <ProgressLine file={file} />
      </Text>
      {isDone && (
        <Group>
          <Anchor href={bulkResultPath(file.id)} download>
            <Group gap={6}>
              <Download size={16} aria-hidden />
              <Trans>Download the result (CSV)</Trans>
            </Group>
          </Anchor>
        </Group>
      )}
    </Stack>
  );
}

/** One file: its summary and confirmation, or its progress and result. */
export function BulkFileCard({ bulkPaymentId }: { bulkPaymentId: string }) {
  const { t } = useLingui();
  const headingId = useId();
  const query = useQuery(bulkPaymentQueryOptions(bulkPaymentId));
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={2} id={headingId}>
          {query.data?.status === 'checked' ? t`Check and confirm` : t`Payment file`}
        </Title>
        {query.isPending ? (
          <LoadingState label={t`Loading the file`} />
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
