import { reopenBodySchema } from '@coffer/contracts/account-reopenings';
import { Alert, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { useMe } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { decideReopening, requestReopening, staffClosureQueryOptions } from '../staff-api.ts';

type Step = { kind: 'request' } | { kind: 'approve' | 'reject' | 'cancel'; reopeningId: string };

/**
 * A closed account on its staff page (ADR 050): when it closed and, for admins, its
 * reopening: one admin asks with a reason, a second admin approves or rejects it.
 */
export function ClosedAccountCard({ userId }: { userId: string }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const closure = useQuery(staffClosureQueryOptions(userId));
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(reopenBodySchema),
  });
  const act = useMutation({
    mutationFn: (step: Step & { reason: string }) =>
      step.kind === 'request'
        ? requestReopening(userId, { reason: step.reason })
        : decideReopening(step.reopeningId, step.kind, { reason: step.reason }),
    onSuccess: async (_closure, step) => {
      form.reset();
      showSuccessToast(
        step.kind === 'request'
          ? 'Reopening requested: a second admin must approve it.'
          : step.kind === 'approve'
            ? 'The account is open again.'
            : step.kind === 'cancel'
              ? 'Reopening request withdrawn.'
              : 'Reopening rejected: the account stays closed.',
      );
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
  });
  const data = closure.data;
  if (!data?.closedAt) return null;
  const pending = data.pendingReopening;
  const isAdmin = me?.role === 'admin';
  const mayDecide = isAdmin && pending !== null && me?.id !== pending.requestedBy.id;
  const isRequester = pending !== null && me?.id === pending.requestedBy.id;
  const submit = (step: Step) =>
    form.onSubmit((values) => act.mutate({ ...step, reason: values.reason }));
  const reasonField = (
    <Textarea label="Reason" required autosize minRows={2} {...form.getInputProps('reason')} />
  );

  return (
    <Alert
      color="gray"
      title={`Account closed by the customer on ${formatDateTime(data.closedAt)}`}
    >
      <Stack gap="sm">
        {data.personalDataRemovedAt ? (
          <Text size="sm">
            Personal data removed after the retention period on{' '}
            {formatDateTime(data.personalDataRemovedAt)}: the account cannot be reopened.
          </Text>
        ) : null}
        <FormAlert message={act.error ? errorMessage(act.error) : null} />
        {pending ? (
          <Text size="sm">
            Reopening requested by {pending.requestedBy.username} on{' '}
            {formatDateTime(pending.createdAt)}: {pending.reason}
          </Text>
        ) : null}
        {pending && mayDecide ? (
          <form noValidate onSubmit={submit({ kind: 'approve', reopeningId: pending.id })}>
            <Stack gap="sm" maw={480}>
              {reasonField}
              <Group gap="sm">
                <BusyButton isBusy={act.isPending} busyLabel="Saving...">
                  Approve reopening
                </BusyButton>
                <BusyButton
                  isBusy={false}
                  busyLabel="Saving..."
                  type="button"
                  variant="default"
                  color="red"
                  disabled={act.isPending}
                  onClick={() => submit({ kind: 'reject', reopeningId: pending.id })()}
                >
                  Reject
                </BusyButton>
              </Group>
            </Stack>
          </form>
        ) : null}
        {pending && !mayDecide ? (
          <Text size="sm" c="dimmed">
            Another admin must approve or reject it.
          </Text>
        ) : null}
        {pending && isRequester ? (
          <form noValidate onSubmit={submit({ kind: 'cancel', reopeningId: pending.id })}>
            <Stack gap="sm" maw={480}>
              {reasonField}
              <Group>
                <BusyButton isBusy={act.isPending} busyLabel="Withdrawing..." variant="default">
                  Withdraw the request
                </BusyButton>
              </Group>
            </Stack>
          </form>
        ) : null}
        {!pending && isAdmin && !data.personalDataRemovedAt ? (
          <form noValidate onSubmit={submit({ kind: 'request' })}>
            <Stack gap="sm" maw={480}>
              {reasonField}
              <Group>
                <BusyButton isBusy={act.isPending} busyLabel="Requesting...">
                  Ask to reopen
                </BusyButton>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Stack>
    </Alert>
  );
}
