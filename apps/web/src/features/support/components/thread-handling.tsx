import { type StaffSupportThread, supportMessages } from '@coffer/contracts/support-staff';
import { Card, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useStaffAction } from '../../../components/staff-action-form.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { assignThread, resolveThread } from '../staff-api.ts';

/**
 * Who has the thread and whether it is done (issue #31 item 2): pass it to a colleague
 * (support or admin, who hears it in their bell) and mark it resolved, which takes it out
 * of the inbox until the customer writes again. Both are audited.
 */
export function ThreadHandling({ userId, thread }: { userId: string; thread: StaffSupportThread }) {
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
    <Card withBorder padding="md" component="section" aria-label="Thread handling">
      <Stack gap="sm">
        <Text size="sm">
          {thread.resolvedAt ? `Resolved ${formatDateTime(thread.resolvedAt)}` : 'Open'}. Assigned
          to {thread.assignee?.username ?? 'nobody'}.
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
              label="Pass to a colleague"
              value={assigneeId}
              onChange={(event) => setAssigneeId(event.currentTarget.value)}
              data={[
                { value: '', label: 'Pick a colleague', disabled: true },
                ...colleagues.map((colleague) => ({
                  value: colleague.id,
                  label: `${colleague.username} (${colleague.role})`,
                })),
              ]}
              style={{ flex: '1 1 14rem' }}
            />
            <BusyButton isBusy={assign.isPending} busyLabel="Assigning..." disabled={!assigneeId}>
              Assign
            </BusyButton>
            {!thread.resolvedAt && (
              <BusyButton
                type="button"
                variant="default"
                isBusy={resolve.isPending}
                busyLabel="Resolving..."
                onClick={() => resolve.submit(undefined)}
              >
                Mark resolved
              </BusyButton>
            )}
          </Group>
        </form>
      </Stack>
    </Card>
  );
}
