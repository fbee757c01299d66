import { reopenBodySchema } from '@coffer/contracts/account-reopenings';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
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
          ? t`Reopening requested: a second admin must approve it.`
          : step.kind === 'approve'
            ? t`The account is open again.`
            : step.kind === 'cancel'
              ? t`Reopening request withdrawn.`
              : t`Reopening rejected: the account stays closed.`,
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
    <Textarea label={t`Reason`} required autosize minRows={2} {...form.getInputProps('reason')} />
  );

  const closedAt = formatDateTime(data.closedAt);
  const removedAt = data.personalDataRemovedAt ? formatDateTime(data.personalDataRemovedAt) : null;
  const requester = pending?.requestedBy.username;
  const requestedAt = pending ? formatDateTime(pending.createdAt) : '';
  const requestReason = pending?.reason;
  return (
    <Alert color="gray" title={t`Account closed by the customer on ${closedAt}`}>
      <Stack gap="sm">
        {removedAt ? (
          <Text size="sm">
            <Trans>
              Personal data removed after the retention period on {removedAt}: the account cannot be
              reopened.
            </Trans>
          </Text>
        ) : null}
        <FormAlert message={act.error ? errorMessage(act.error) : null} />
        {pending ? (
          <Text size="sm">
            <Trans>
              Reopening requested by {requester} on {requestedAt}: {requestReason}
            </Trans>
          </Text>
        ) : null}
        {pending && mayDecide ? (
          <form noValidate onSubmit={submit({ kind: 'approve', reopeningId: pending.id })}>
            <Stack gap="sm" maw={480}>
              {reasonField}
              <Group gap="sm">
                <BusyButton isBusy={act.isPending} busyLabel={t`Saving...`}>
                  <Trans>Approve reopening</Trans>
                </BusyButton>
                <BusyButton
                  isBusy={false}
                  busyLabel={t`Saving...`}
                  type="button"
                  variant="default"
                  color="red"
                  disabled={act.isPending}
                  onClick={() => submit({ kind: 'reject', reopeningId: pending.id })()}
                >
                  <Trans>Reject</Trans>
                </BusyButton>
              </Group>
            </Stack>
          </form>
        ) : null}
        {pending && !mayDecide ? (
          <Text size="sm" c="dimmed">
            <Trans>Another admin must approve or reject it.</Trans>
          </Text>
        ) : null}
        {pending && isRequester ? (
          <form noValidate onSubmit={submit({ kind: 'cancel', reopeningId: pending.id })}>
            <Stack gap="sm" maw={480}>
              {reasonField}
              <Group>
                <BusyButton isBusy={act.isPending} busyLabel={t`Withdrawing...`} variant="default">
                  <Trans>Withdraw the request</Trans>
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
                <BusyButton isBusy={act.isPending} busyLabel={t`Requesting...`}>
                  <Trans>Ask to reopen</Trans>
                </BusyButton>
              </Group>
            </Stack>
          </form>
        ) : null}
      </Stack>
    </Alert>
  );
}
