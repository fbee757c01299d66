import type { CustomerDetail } from '@coffer/contracts/admin';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useMe } from '../../../lib/session.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { decideRoleGrant } from '../api.ts';
import { roleNames } from './badges.tsx';

type Grant = NonNullable<CustomerDetail['pendingRoleGrant']>;

/**
 * A grant of the admin role waiting for a second admin, on the person's page: any other
 * admin approves or rejects it here; its requester and everyone else see who it waits on.
 */
export function RoleGrantCard({ customer, grant }: { customer: CustomerDetail; grant: Grant }) {
  const { t, i18n } = useLingui();
  const me = useMe();
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => decideRoleGrant(customer.id, decision),
    onSuccess: async (detail, decision) => {
      const changed = detail.username;
      const roleName = i18n._(roleNames[detail.role]);
      showSuccessToast(
        decision === 'approve'
          ? t`${changed} is now ${roleName}.`
          : t`Admin role rejected for ${changed}.`,
      );
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
  });
  const mayDecide = me?.role === 'admin' && me.id !== grant.requestedBy.id;
  const grantedRole = i18n._(roleNames[grant.role]);
  const requester = grant.requestedBy.username;
  const requestedAt = formatDateTime(grant.createdAt);
  const reason = grant.reason;
  return (
    <Alert color="yellow" title={t`${grantedRole} role waiting for a second admin`}>
      <Stack gap="sm">
        <Text size="sm">
          <Trans>
            Requested by {requester} on {requestedAt}: {reason}
          </Trans>
        </Text>
        <FormAlert message={decide.error ? errorMessage(decide.error) : null} />
        {mayDecide ? (
          <Group gap="sm">
            <BusyButton
              isBusy={decide.isPending && decide.variables === 'approve'}
              busyLabel={t`Approving...`}
              disabled={decide.isPending}
              type="button"
              onClick={() => decide.mutate('approve')}
            >
              <Trans>Approve admin role</Trans>
            </BusyButton>
            <BusyButton
              isBusy={decide.isPending && decide.variables === 'reject'}
              busyLabel={t`Rejecting...`}
              disabled={decide.isPending}
              type="button"
              variant="default"
              color="red"
              onClick={() => decide.mutate('reject')}
            >
              <Trans>Reject</Trans>
            </BusyButton>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>Another admin must approve or reject it.</Trans>
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
