import {
  registerWebhookBodySchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  webhookEventTypes,
} from '@coffer/contracts/webhooks';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useContractForm } from '../../../lib/forms.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import {
  useDeleteWebhook,
  useRegisterWebhook,
  useReplayDelivery,
  useRollWebhookSecret,
  useSetWebhookEnabled,
  webhookDeliveriesQueryOptions,
  webhookEndpointsQueryOptions,
} from '../api.ts';

/** The secret of a new or rolled endpoint: shown here once, never again. */
function SecretShownOnce({ secret, onClose }: { secret: string | null; onClose: () => void }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title="Signing secret" size="lg">
      <Stack gap="md">
        <Alert color="yellow" title="Copy it now">
          This is the only time Coffer shows this secret. Give it to the receiving service, which
          checks each delivery’s signature with it.
        </Alert>
        <Group gap="sm" wrap="nowrap">
          <Code data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
          <CopyButton value={secret ?? ''} accessibleName="Copy the signing secret" />
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose}>I have copied it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RegisterForm({ onSecret }: { onSecret: (secret: string) => void }) {
  const mutation = useRegisterWebhook();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: registerWebhookBodySchema,
    initialValues: { url: '', eventTypes: [...webhookEventTypes] as string[] },
    mutation,
    onSuccess: (created) => {
      form.reset();
      onSecret(created.secret);
    },
  });
  return (
    <Paper withBorder p="md">
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="md">
          <Title order={2} size="h4">
            Register an endpoint
          </Title>
          <FormAlert message={formError} />
          <TextInput
            label="Address"
            placeholder="https://example.com/coffer-webhooks"
            {...form.getInputProps('url')}
          />
          <Checkbox.Group label="Events" {...form.getInputProps('eventTypes')}>
            <Group gap="md" mt="xs">
              {webhookEventTypes.map((type) => (
                <Checkbox key={type} value={type} label={type} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group justify="flex-end">
            <BusyButton isBusy={isPending} busyLabel="Registering...">
              Register
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

const deliveryColors = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

function DeliveryRow({ endpointId, delivery }: { endpointId: string; delivery: WebhookDelivery }) {
  const replay = useReplayDelivery();
  const last = delivery.attempts.at(-1);
  return (
    <Table.Tr data-testid="webhook-delivery">
      <Table.Td>{formatDateTime(delivery.createdAt)}</Table.Td>
      <Table.Td>{delivery.eventType}</Table.Td>
      <Table.Td>
        <Badge
          color={deliveryColors[delivery.status]}
          variant="light"
          data-testid="webhook-delivery-status"
        >
          {delivery.status}
        </Badge>
      </Table.Td>
      <Table.Td>{delivery.attemptCount}</Table.Td>
      <Table.Td>
        {last ? (
          <Text size="sm">
            {last.statusCode ?? last.error} · {last.durationMs} ms
            {last.responseHead && (
              <Text span c="dimmed" size="xs" display="block" lineClamp={2}>
                {last.responseHead}
              </Text>
            )}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Not tried yet
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Button
          size="compact-sm"
          variant="default"
          loading={replay.isPending}
          onClick={() =>
            replay.mutate(
              { endpointId, deliveryId: delivery.id },
              {
                onSuccess: () => showSuccessToast('Queued to be sent again'),
                onError: (error) => showErrorToast(errorMessage(error)),
              },
            )
          }
        >
          Send again
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useQuery(webhookDeliveriesQueryOptions(endpointId));
  if (deliveries.isError) {
    return (
      <LoadFailed
        title="The deliveries did not load"
        error={deliveries.error}
        isRetrying={deliveries.isFetching}
        onRetry={() => deliveries.refetch()}
      />
    );
  }
  if (deliveries.isPending) return <Text c="dimmed">Loading deliveries…</Text>;
  if (deliveries.data.items.length === 0) return <Text c="dimmed">No deliveries yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table aria-label="Recent deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event time</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Last answer</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data.items.map((delivery) => (
            <DeliveryRow key={delivery.id} endpointId={endpointId} delivery={delivery} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function EndpointCard({
  endpoint,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onSecret: (secret: string) => void;
}) {
  const [isShowingDeliveries, setShowingDeliveries] = useState(false);
  const roll = useRollWebhookSecret();
  const setEnabled = useSetWebhookEnabled();
  const remove = useDeleteWebhook();
  const onError = (error: Error) => showErrorToast(errorMessage(error));
  const isEnabled = endpoint.status === 'enabled';
  return (
    <Paper withBorder p="md" data-testid="webhook-endpoint">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2}>
            <Text fw={600} style={{ wordBreak: 'break-all' }}>
              {endpoint.url}
            </Text>
            <Text size="sm" c="dimmed">
              {endpoint.eventTypes.join(', ')}
            </Text>
          </Stack>
          <Badge
            color={isEnabled ? 'green' : 'gray'}
            variant="light"
            data-testid="webhook-endpoint-status"
          >
            {isEnabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        {endpoint.disabledReason === 'failing' && (
          <Alert color="red">
            Turned off on {formatDateTime(endpoint.disabledAt ?? endpoint.createdAt)}: every
            delivery failed for 24 hours. Fix the receiver, then turn it on again.
          </Alert>
        )}
        {endpoint.failingSince && isEnabled && (
          <Text size="sm" c="red.9">
            Failing since {formatDateTime(endpoint.failingSince)}
          </Text>
        )}
        {endpoint.previousSecretExpiresAt &&
          new Date(endpoint.previousSecretExpiresAt) > new Date() && (
            <Text size="sm" c="dimmed">
              The previous secret signs too until {formatDateTime(endpoint.previousSecretExpiresAt)}
              .
            </Text>
          )}
        <Text size="sm">{endpoint.pendingCount} waiting to be delivered</Text>
        <Group gap="sm">
          <Button variant="light" onClick={() => setShowingDeliveries((shown) => !shown)}>
            {isShowingDeliveries ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          <Button
            variant="default"
            loading={roll.isPending}
            onClick={() =>
              roll.mutate(endpoint.id, { onSuccess: (rolled) => onSecret(rolled.secret), onError })
            }
          >
            Roll secret
          </Button>
          <Button
            variant="default"
            loading={setEnabled.isPending}
            onClick={() =>
              setEnabled.mutate({ endpointId: endpoint.id, isEnabled: !isEnabled }, { onError })
            }
          >
            {isEnabled ? 'Turn off' : 'Turn on'}
          </Button>
          <Button
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete ${endpoint.url} and its delivery history?`)) {
                remove.mutate(endpoint.id, { onError });
              }
            }}
          >
            Delete
          </Button>
        </Group>
        {isShowingDeliveries && <Deliveries endpointId={endpoint.id} />}
      </Stack>
    </Paper>
  );
}

/**
 * Webhooks for integrators (issue #34 item 1): the admin registers endpoints, sees the
 * secret once, and follows each endpoint's deliveries and their attempts.
 */
export function WebhooksPage() {
  usePageTitle('Webhooks');
  const endpoints = useQuery(webhookEndpointsQueryOptions);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Stack gap="lg">
      <Title order={1}>Webhooks</Title>
      <Text c="dimmed">
        Coffer tells these addresses when money moves in a customer’s wallet, signed in the Standard
        Webhooks format, and retries for 24 hours.
      </Text>
      <SecretShownOnce secret={secret} onClose={() => setSecret(null)} />
      <RegisterForm onSecret={setSecret} />
      {endpoints.isError ? (
        <LoadFailed
          title="The endpoints did not load"
          error={endpoints.error}
          isRetrying={endpoints.isFetching}
          onRetry={() => endpoints.refetch()}
        />
      ) : endpoints.isPending ? (
        <Text c="dimmed">Loading endpoints…</Text>
      ) : endpoints.data.items.length === 0 ? (
        <Text>No endpoints yet.</Text>
      ) : (
        endpoints.data.items.map((endpoint) => (
          <EndpointCard key={endpoint.id} endpoint={endpoint} onSecret={setSecret} />
        ))
      )}
    </Stack>
  );
}
