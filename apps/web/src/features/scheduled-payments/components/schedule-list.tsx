import {
  describeScheduleRule,
  type OccurrenceStatus,
  type ScheduledPayment,
} from '@coffer/contracts/scheduled-payments';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { Modal } from '../../../components/modal.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatUtcDay } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { type ScheduleAction, scheduledPaymentsQueryOptions, useChangeSchedule } from '../api.ts';

const occurrenceWords: Record<OccurrenceStatus, string> = {
  pending: 'due',
  paid: 'paid',
  retrying: 'refused, to be tried again',
  missed: 'missed',
  skipped: 'skipped',
};

function endWords(schedule: ScheduledPayment): string {
  if (schedule.frequency === 'once') return '';
  if (schedule.endType === 'until' && schedule.endDate) {
    return `, until ${formatUtcDay(schedule.endDate)}`;
  }
  if (schedule.endType === 'count') return `, ${schedule.occurrencesMax} times`;
  return '';
}

function ScheduleRow({
  schedule,
  onEdit,
  onCancel,
}: {
  schedule: ScheduledPayment;
  onEdit: () => void;
  onCancel: () => void;
}) {
  const change = useChangeSchedule();
  const [failure, setFailure] = useState<string | null>(null);
  const payee = schedule.payeeNickname ?? 'A deleted payee';
  const run = (action: ScheduleAction, done: string) =>
    change.mutate(
      { scheduleId: schedule.id, action },
      {
        onSuccess: () => showSuccessToast(done),
        onError: (error) => setFailure(errorMessage(error)),
      },
    );
  const isActive = schedule.status === 'active';
  const lastRefused = schedule.recentOccurrences.find(
    (occurrence) => occurrence.status === 'retrying' || occurrence.status === 'missed',
  );
  return (
    <Stack component="li" gap={6} aria-label={`Scheduled payment to ${payee}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {formatAmountMinor(schedule.amountMinor, schedule.currency)} to {payee}
            </Text>
            {!isActive && <Badge color="gray">Paused</Badge>}
          </Group>
          <Text size="sm" c="dimmed">
            {describeScheduleRule(schedule)}
            {endWords(schedule)}
            {schedule.reference ? ` · ${schedule.reference}` : ''}
          </Text>
          <Text size="sm">
            {schedule.upcomingDates.length > 0
              ? `Upcoming: ${schedule.upcomingDates.map(formatUtcDay).join(', ')}`
              : isActive
                ? 'No payments left'
                : 'Paused: nothing will be paid until you resume it'}
          </Text>
          {lastRefused && (
            <Text size="sm" c="red">
              {formatUtcDay(lastRefused.date)}: {occurrenceWords[lastRefused.status]}.{' '}
              {lastRefused.reason}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={onEdit}>
            Edit
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={change.isPending}
            onClick={() =>
              isActive ? run('pause', 'Scheduled payment paused') : run('resume', 'Resumed')
            }
          >
            {isActive ? 'Pause' : 'Resume'}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Group>
      <FormAlert message={failure} />
    </Stack>
  );
}

function CancelDialog({
  schedule,
  onClose,
}: {
  schedule: ScheduledPayment | null;
  onClose: () => void;
}) {
  const change = useChangeSchedule();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Modal opened={schedule !== null} onClose={onClose} title="Cancel scheduled payment">
      {schedule && (
        <Stack gap="md">
          <FormAlert message={failure} />
          <Text>
            Cancel the payment of {formatAmountMinor(schedule.amountMinor, schedule.currency)} to{' '}
            {schedule.payeeNickname ?? 'a deleted payee'}? Nothing more will be paid by it.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button
              color="red"
              loading={change.isPending}
              onClick={() =>
                change.mutate(
                  { scheduleId: schedule.id, action: 'cancel' },
                  {
                    onSuccess: () => {
                      showSuccessToast('Scheduled payment cancelled');
                      onClose();
                    },
                    onError: (error) => setFailure(errorMessage(error)),
                  },
                )
              }
            >
              Cancel payment
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The customer's schedules with their next dates, each with edit, pause and cancel. */
export function ScheduleList({ onEdit }: { onEdit: (schedule: ScheduledPayment) => void }) {
  const headingId = useId();
  const schedules = useQuery(scheduledPaymentsQueryOptions);
  const [cancelling, setCancelling] = useState<ScheduledPayment | null>(null);
  let content: React.ReactNode;
  if (schedules.isPending) content = <LoadingState label="Loading scheduled payments" />;
  else if (schedules.isError)
    content = (
      <LoadFailed
        error={schedules.error}
        isRetrying={schedules.isFetching}
        onRetry={() => void schedules.refetch()}
      />
    );
  else if (schedules.data.items.length === 0)
    content = (
      <NothingFound
        title="No scheduled payments yet"
        description="Schedule a payment to a saved payee for a date, or every week or month."
      />
    );
  else
    content = (
      <Stack gap="md" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {schedules.data.items.map((schedule) => (
          <ScheduleRow
            key={schedule.id}
            schedule={schedule}
            onEdit={() => onEdit(schedule)}
            onCancel={() => setCancelling(schedule)}
          />
        ))}
      </Stack>
    );
  const timeZone = schedules.data?.items[0]?.timeZone;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Your scheduled payments
      </Title>
      {timeZone && (
        <Text size="sm" c="dimmed" mb="sm">
          Dates are days in your time zone, {timeZone} (change it on your profile).
        </Text>
      )}
      {content}
      <CancelDialog schedule={cancelling} onClose={() => setCancelling(null)} />
    </Card>
  );
}
