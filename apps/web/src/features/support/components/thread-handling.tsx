import { type StaffSupportThread, supportMessages } from '@coffer/contracts/support-staff';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useStaffAction } from '../../../components/staff-action-form.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { assignThread, resolveThread } from '../staff-api.ts';

type Colleague = StaffSupportThread['colleagues'][number];

/** A colleague's role beside their name in the list: "lee (support)". */
const colleagueRoleNames: Record<Colleague['role'], MessageDescriptor> = {
  support: msg`support`,
  admin: msg`admin`,
};

function ThreadState({ thread }: { thread: StaffSupportThread }) {
  const assignee = thread.assignee?.username;
  if (thread.resolvedAt) {
    const resolvedAt = formatDateTime(thread.resolvedAt);
    return assignee === undefined ? (
      <Trans>Resolved {resolvedAt}. Assigned to nobody.</Trans>
    ) : (
      <Trans>
        Resolved {resolvedAt}. Assigned to {assignee}.
      </Trans>
    );
  }
  return assignee === undefined ? (
    <Trans>Open. Assigned to nobody.</Trans>
  ) : (
    <Trans>Open. Assigned to {assignee}.</Trans>
  );
}

/**
 * Who has the thread and whether it is done (issue #31 item 2): pass it to a colleague
 * (support or admin, who hears it in their bell) and mark it resolved, which takes it out
 * of the inbox until the customer writes again. Both are audited.
 */
export function ThreadHandling({ userId, thread }: { userId: string; thread: StaffSupportThread }) {
  const { t, i18n } = useLingui();
  const colleagueLabel = ({ username, role }: Colleague) =>
    `${username} (${i18n._(colleagueRoleNames[role])})`;
  const [assigneeId, setAssigneeId] = useState('');
  const assign = useStaffAction({
    mutationFn: (assigneeUserId: string) => assignThread(userId, { assigneeUserId }),
    onDone: () => {
      showSuccessToast(supportMessages.assigned);
      setAssigneeId('');
    },
    describeError: errorMessage,
  });
  const resolve = useStaffAction({
    mutationFn: () => resolveThread(userId),
    onDone: () => showSuccessToast(supportMessages.resolved),
    describeError: errorMessage,
  });
  const colleagues = thread.colleagues.filter((colleague) => colleague.id !== thread.assignee?.id);
  return (
    <Card withBorder padding="md" component="section" aria-label={t`Thread handling`}>
      <Stack gap="sm">
        <Text size="sm">
          <ThreadState thread={thread} />
        </Text>
        <FormAlert message={assign.formError ?? resolve.formError} />
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (assigneeId) assign.submit(assigneeId);
          }}
        >
          <Group align="flex-end" gap="sm">
            <NativeSelect
              label={t`Pass to a colleague`}
              value={assigneeId}
              onChange={(event) => setAssigneeId(event.currentTarget.value)}
              data={[
                { value: '', label: t`Pick a colleague`, disabled: true },
                ...colleagues.map((colleague) => ({
                  value: colleague.id,
                  label: colleagueLabel(colleague),
                })),
              ]}
              style={{ flex: '1 1 14rem' }}
            />
            <BusyButton
              isBusy={assign.isPending}
              busyLabel={t`Assigning...`}
              disabled={!assigneeId}
            >
              <Trans>Assign</Trans>
            </BusyButton>
            {!thread.resolvedAt && (
              <BusyButton
                type="button"
                variant="default"
                isBusy={resolve.isPending}
                busyLabel={t`Resolving...`}
                onClick={() => resolve.submit(undefined)}
              >
                <Trans>Mark resolved</Trans>
              </BusyButton>
            )}
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
