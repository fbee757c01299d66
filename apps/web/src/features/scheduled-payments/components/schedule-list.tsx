import type { OccurrenceStatus, ScheduledPayment } from '@coffer/contracts/scheduled-payments';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { weekdayName } from '../weekdays.ts';

/** What became of an occurrence, after its date: "12 Mar 2026: missed." */
const occurrenceWords: Record<OccurrenceStatus, (date: string) => MessageDescriptor> = {
  pending: (date) => msg`${date}: due.`,
  paid: (date) => msg`${date}: paid.`,
  retrying: (date) => msg`${date}: refused, to be tried again.`,
  missed: (date) => msg`${date}: missed.`,
  skipped: (date) => msg`${date}: skipped.`,
};

/** When a schedule pays (the contract's describeScheduleRule, in the page's language). */
function ruleWords(schedule: ScheduledPayment): MessageDescriptor {
  switch (schedule.frequency) {
    case 'once': {
      const date = formatUtcDay(schedule.startDate);
      return msg`Once on ${date}`;
    }
    case 'weekly': {
      const weekday = weekdayName(schedule.weekday ?? 1);
      return msg`Every ${weekday}`;
    }
    case 'monthly': {
      const day = schedule.dayOfMonth ?? 1;
      return day === 'last'
        ? msg`Every month on the last day`
        : msg`Every month on day ${day} (the last day when shorter)`;
    }
  }
}

function endWords(schedule: ScheduledPayment): MessageDescriptor | null {
  if (schedule.frequency === 'once') return null;
  if (schedule.endType === 'until' && schedule.endDate) {
    const endDate = formatUtcDay(schedule.endDate);
    return msg`until ${endDate}`;
  }
  const count = schedule.occurrencesMax;
  if (schedule.endType === 'count' && count !== null) {
    return msg`${plural(count, { one: '# time', other: '# times' })}`;
  }
  return null;
}

/** The rule, its end and the reference, each a phrase of its own. */
function scheduleLine(i18n: I18n, schedule: ScheduledPayment): string {
  const end = endWords(schedule);
  return [i18n._(ruleWords(schedule)), end && i18n._(end), schedule.reference]
    .filter(Boolean)
    .join(' · ');
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
  const { t, i18n } = useLingui();
  const change = useChangeSchedule();
  const [failure, setFailure] = useState<string | null>(null);
  const payee = schedule.payeeNickname ?? t`A deleted payee`;
  const amount = formatAmountMinor(schedule.amountMinor, schedule.currency);
  const upcoming = schedule.upcomingDates.map(formatUtcDay).join(', ');
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
    <Stack component="li" gap={6} aria-label={t`Scheduled payment to ${payee}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              <Trans>
                {amount} to {payee}
              </Trans>
            </Text>
            {!isActive && (
              <Badge color="gray">
                <Trans>Paused</Trans>
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {scheduleLine(i18n, schedule)}
          </Text>
          <Text size="sm">
            {schedule.upcomingDates.length > 0
              ? t`Upcoming: ${upcoming}`
              : isActive
                ? t`No payments left`
                : t`Paused: nothing will be paid until you resume it`}
          </Text>
          {lastRefused && (
            <Text size="sm" c="red">
              {i18n._(occurrenceWords[lastRefused.status](formatUtcDay(lastRefused.date)))}{' '}
              {lastRefused.reason}
            </Text>
          )}
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="default" onClick={onEdit}>
            <Trans>Edit</Trans>
          </Button>
          <Button
            size="xs"
            variant="default"
            loading={change.isPending}
            onClick={() =>
              isActive ? run('pause', t`Scheduled payment paused`) : run('resume', t`Resumed`)
            }
          >
            {isActive ? t`Pause` : t`Resume`}
          </Button>
          <Button size="xs" variant="light" color="red" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        </Group>
      </Group>
      <FormAlert message={failure} />
    </Stack>
  );
}

function CancelQuestion({ schedule }: { schedule: ScheduledPayment }) {
  const amount = formatAmountMinor(schedule.amountMinor, schedule.currency);
  const payee = schedule.payeeNickname;
  return (
    <Text>
      {payee ? (
        <Trans>
          Cancel the payment of {amount} to {payee}? Nothing more will be paid by it.
        </Trans>
      ) : (
        <Trans>
          Cancel the payment of {amount} to a deleted payee? Nothing more will be paid by it.
        </Trans>
      )}
    </Text>
  );
}

function CancelDialog({
  schedule,
  onClose,
}: {
  schedule: ScheduledPayment | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const change = useChangeSchedule();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Modal opened={schedule !== null} onClose={onClose} title={t`Cancel scheduled payment`}>
      {schedule && (
        <Stack gap="md">
          <FormAlert message={failure} />
          <CancelQuestion schedule={schedule} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Keep it</Trans>
            </Button>
            <Button
              color="red"
              loading={change.isPending}
              onClick={() =>
                change.mutate(
                  { scheduleId: schedule.id, action: 'cancel' },
                  {
                    onSuccess: () => {
                      showSuccessToast(t`Scheduled payment cancelled`);
                      onClose();
                    },
                    onError: (error) => setFailure(errorMessage(error)),
                  },
                )
              }
            >
              <Trans>Cancel payment</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The customer's schedules with their next dates, each with edit, pause and cancel. */
export function ScheduleList({ onEdit }: { onEdit: (schedule: ScheduledPayment) => void }) {
  const { t } = useLingui();
  const headingId = useId();
  const schedules = useQuery(scheduledPaymentsQueryOptions);
  const [cancelling, setCancelling] = useState<ScheduledPayment | null>(null);
  let content: React.ReactNode;
  if (schedules.isPending) content = <LoadingState label={t`Loading scheduled payments`} />;
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
        title={t`No scheduled payments yet`}
        description={t`Schedule a payment to a saved payee for a date, or every week or month.`}
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
        <Trans>Your scheduled payments</Trans>
      </Title>
      {timeZone && (
        <Text size="sm" c="dimmed" mb="sm">
          <Trans>Dates are days in your time zone, {timeZone} (change it on your profile).</Trans>
        </Text>
      )}
      {content}
      <CancelDialog schedule={cancelling} onClose={() => setCancelling(null)} />
    </Card>
  );
}
