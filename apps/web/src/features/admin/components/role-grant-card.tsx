import type { CustomerDetail } from '@coffer/contracts/admin';
import { Alert, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { roleLabels } from '../../../components/staff-role-badge.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useMe } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { decideRoleGrant } from '../api.ts';

type Grant = NonNullable<CustomerDetail['pendingRoleGrant']>;

/**
 * A grant of the admin role waiting for a second admin, on the person's page: any other
 * admin approves or rejects it here; its requester and everyone else see who it waits on.
 */
export function RoleGrantCard({ customer, grant }: { customer: CustomerDetail; grant: Grant }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => decideRoleGrant(customer.id, decision),
    onSuccess: async (detail, decision) => {
      showSuccessToast(
        decision === 'approve'
          ? `${detail.username} is now ${roleLabels[detail.role]}.`
          : `Admin role rejected for ${detail.username}.`,
      );
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
  });
  const mayDecide = me?.role === 'admin' && me.id !== grant.requestedBy.id;
  return (
    <Alert color="yellow" title={`${roleLabels[grant.role]} role waiting for a second admin`}>
      <Stack gap="sm">
        <Text size="sm">
          Requested by {grant.requestedBy.username} on {formatDateTime(grant.createdAt)}:{' '}
          {grant.reason}
        </Text>
        <FormAlert message={decide.error ? errorMessage(decide.error) : null} />
        {mayDecide ? (
          <Group gap="sm">
            <BusyButton
              isBusy={decide.isPending && decide.variables === 'approve'}
              busyLabel="Approving..."
              disabled={decide.isPending}
              type="button"
              onClick={() => decide.mutate('approve')}
            >
              Approve admin role
            </BusyButton>
            <BusyButton
              isBusy={decide.isPending && decide.variables === 'reject'}
              busyLabel="Rejecting..."
              disabled={decide.isPending}
              type="button"
              variant="default"
              color="red"
              onClick={() => decide.mutate('reject')}
            >
              Reject
            </BusyButton>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Another admin must approve or reject it.
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
