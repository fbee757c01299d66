import type { SessionInfo } from '@coffer/contracts/profile';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { revokeOtherSessions, revokeSession, sessionsQueryOptions } from '../api.ts';

function SessionRow({ session }: { session: SessionInfo }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeSession(session.id),
    onSuccess: () => {
      showSuccessToast(t`That session is signed out.`);
      return queryClient.invalidateQueries({ queryKey: sessionsQueryOptions.queryKey });
    },
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  const device = session.device;
  const lastUsed = formatDateTime(session.lastUsedAt);
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm">{session.device}</Text>
          {session.isCurrent && (
            <Badge variant="light" size="sm" style={{ flexShrink: 0 }}>
              <Trans>This device</Trans>
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Text size="sm" ff="monospace">
          {session.ipAddress ? <bdi>{session.ipAddress}</bdi> : t`Unknown`}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{lastUsed}</Text>
      </Table.Td>
      <Table.Td ta="end">
        {!session.isCurrent && (
          <Button
            variant="default"
            size="compact-sm"
            disabled={revoke.isPending}
            onClick={() => revoke.mutate()}
            aria-label={t`Revoke the session on ${device}, last used ${lastUsed}`}
          >
            <Trans>Revoke</Trans>
          </Button>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function SessionsCard() {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQueryOptions);
  const revokeOthers = useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => {
      showSuccessToast(t`Your other sessions are signed out.`);
      return queryClient.invalidateQueries({ queryKey: sessionsQueryOptions.queryKey });
    },
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  const headingId = 'sessions-heading';
  const hasOtherSessions = sessions.data?.sessions.some((session) => !session.isCurrent) ?? false;

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} id={headingId}>
          <Trans>Active sessions</Trans>
        </Title>
        <Button
          variant="default"
          size="sm"
          disabled={!hasOtherSessions || revokeOthers.isPending}
          onClick={() => revokeOthers.mutate()}
        >
          <Trans>Sign out other sessions</Trans>
        </Button>
      </Group>
      {sessions.isPending && <Loader size="sm" aria-label={t`Loading sessions`} />}
      {sessions.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(sessions.error)}
        </Alert>
      )}
      {sessions.data && (
        <Table.ScrollContainer minWidth={560} type="native">
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Device</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>IP address</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Last used</Trans>
                </Table.Th>
                <Table.Th>
                  <VisuallyHidden>
                    <Trans>Actions</Trans>
                  </VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.data.sessions.map((session) => (
                <SessionRow key={session.id} session={session} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
