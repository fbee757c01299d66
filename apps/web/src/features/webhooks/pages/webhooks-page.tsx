import {
  registerWebhookBodySchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  webhookEventTypes,
} from '@coffer/contracts/webhooks';
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  return (
    <Modal opened={secret !== null} onClose={onClose} title={t`Signing secret`} size="lg">
      <Stack gap="md">
        <Alert color="yellow" title={t`Copy it now`}>
          <Trans>
            This is the only time Coffer shows this secret. Give it to the receiving service, which
            checks each delivery’s signature with it.
          </Trans>
        </Alert>
        <Group gap="sm" wrap="nowrap">
          <Code data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
            {secret}
          </Code>
          <CopyButton value={secret ?? ''} accessibleName={t`Copy the signing secret`} />
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose}>
            <Trans>I have copied it</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** An address, the same in every language: nothing in it to translate. */
const exampleAddress = 'https://example.com/coffer-webhooks';

function RegisterForm({ onSecret }: { onSecret: (secret: string) => void }) {
  const { t } = useLingui();
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
            <Trans>Register an endpoint</Trans>
          </Title>
          <FormAlert message={formError} />
          <TextInput
            label={t`Address`}
            // An address reads left to right in every language.
            dir="ltr"
            placeholder={exampleAddress}
            {...form.getInputProps('url')}
          />
          <Checkbox.Group label={t`Events`} {...form.getInputProps('eventTypes')}>
            <Group gap="md" mt="xs">
              {webhookEventTypes.map((type) => (
                <Checkbox key={type} value={type} label={type} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group justify="flex-end">
            <BusyButton isBusy={isPending} busyLabel={t`Registering...`}>
              <Trans>Register</Trans>
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

const deliveryColors = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

const deliveryStatusLabels: Record<WebhookDelivery['status'], MessageDescriptor> = {
  pending: msg`pending`,
  delivered: msg`delivered`,
  failed: msg`failed`,
};

function LastAnswer({ answer, durationMs }: { answer: string | number; durationMs: number }) {
  return (
    <Trans>
      {answer} · {durationMs} ms
    </Trans>
  );
}

function DeliveryRow({ endpointId, delivery }: { endpointId: string; delivery: WebhookDelivery }) {
  const { t, i18n } = useLingui();
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
          {i18n._(deliveryStatusLabels[delivery.status])}
        </Badge>
      </Table.Td>
      <Table.Td>{delivery.attemptCount}</Table.Td>
      <Table.Td>
        {last ? (
          <Text size="sm">
            <LastAnswer answer={last.statusCode ?? last.error ?? ''} durationMs={last.durationMs} />
            {last.responseHead && (
              <Text span c="dimmed" size="xs" display="block" lineClamp={2}>
                {last.responseHead}
              </Text>
            )}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            <Trans>Not tried yet</Trans>
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
                onSuccess: () => showSuccessToast(t`Queued to be sent again`),
                onError: (error) => showErrorToast(errorMessage(error)),
              },
            )
          }
        >
          <Trans>Send again</Trans>
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const { t } = useLingui();
  const deliveries = useQuery(webhookDeliveriesQueryOptions(endpointId));
  if (deliveries.isError) {
    return (
      <LoadFailed
        title={t`The deliveries did not load`}
        error={deliveries.error}
        isRetrying={deliveries.isFetching}
        onRetry={() => deliveries.refetch()}
      />
    );
  }
  if (deliveries.isPending) {
    return (
      <Text c="dimmed">
        <Trans>Loading deliveries…</Trans>
      </Text>
    );
  }
  if (deliveries.data.items.length === 0) {
    return (
      <Text c="dimmed">
        <Trans>No deliveries yet.</Trans>
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720} type="native">
      <Table aria-label={t`Recent deliveries`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>
              <Trans>Event time</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Event</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Status</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Attempts</Trans>
            </Table.Th>
            <Table.Th>
              <Trans>Last answer</Trans>
            </Table.Th>
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
  const { t } = useLingui();
  const [isShowingDeliveries, setShowingDeliveries] = useState(false);
  const roll = useRollWebhookSecret();
  const setEnabled = useSetWebhookEnabled();
  const remove = useDeleteWebhook();
  const onError = (error: Error) => showErrorToast(errorMessage(error));
  const isEnabled = endpoint.status === 'enabled';
  const { url, pendingCount } = endpoint;
  const turnedOffAt = formatDateTime(endpoint.disabledAt ?? endpoint.createdAt);
  const failingSince = endpoint.failingSince ? formatDateTime(endpoint.failingSince) : '';
  const previousSecretUntil = endpoint.previousSecretExpiresAt
    ? formatDateTime(endpoint.previousSecretExpiresAt)
    : '';
  return (
    <Paper withBorder p="md" data-testid="webhook-endpoint">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={2}>
            <Text fw={600} style={{ wordBreak: 'break-all' }} dir="ltr">
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
            {isEnabled ? t`On` : t`Off`}
          </Badge>
        </Group>
        {endpoint.disabledReason === 'failing' && (
          <Alert color="red">
            <Trans>
              Turned off on {turnedOffAt}: every delivery failed for 24 hours. Fix the receiver,
              then turn it on again.
            </Trans>
          </Alert>
        )}
        {endpoint.failingSince && isEnabled && (
          <Text size="sm" c="red.9">
            <Trans>Failing since {failingSince}</Trans>
          </Text>
        )}
        {endpoint.previousSecretExpiresAt &&
          new Date(endpoint.previousSecretExpiresAt) > new Date() && (
            <Text size="sm" c="dimmed">
              <Trans>The previous secret signs too until {previousSecretUntil}.</Trans>
            </Text>
          )}
        <Text size="sm">
          {t`${plural(pendingCount, { one: '# waiting to be delivered', other: '# waiting to be delivered' })}`}
        </Text>
        <Group gap="sm">
          <Button variant="light" onClick={() => setShowingDeliveries((shown) => !shown)}>
            {isShowingDeliveries ? t`Hide deliveries` : t`Deliveries`}
          </Button>
          <Button
            variant="default"
            loading={roll.isPending}
            onClick={() =>
              roll.mutate(endpoint.id, { onSuccess: (rolled) => onSecret(rolled.secret), onError })
            }
          >
            <Trans>Roll secret</Trans>
          </Button>
          <Button
            variant="default"
            loading={setEnabled.isPending}
            onClick={() =>
              setEnabled.mutate({ endpointId: endpoint.id, isEnabled: !isEnabled }, { onError })
            }
          >
            {isEnabled ? t`Turn off` : t`Turn on`}
          </Button>
          <Button
            variant="subtle"
            color="red"
            loading={remove.isPending}
            onClick={() => {
              if (window.confirm(t`Delete ${url} and its delivery history?`)) {
                remove.mutate(endpoint.id, { onError });
              }
            }}
          >
            <Trans>Delete</Trans>
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
  const { t } = useLingui();
  usePageTitle(t`Webhooks`);
  const endpoints = useQuery(webhookEndpointsQueryOptions);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Stack gap="lg">
      <Title order={1}>
        <Trans>Webhooks</Trans>
      </Title>
      <Text c="dimmed">
        <Trans>
          Coffer tells these addresses when money moves in a customer’s wallet, signed in the
          Standard Webhooks format, and retries for 24 hours.
        </Trans>
      </Text>
      <SecretShownOnce secret={secret} onClose={() => setSecret(null)} />
      <RegisterForm onSecret={setSecret} />
      {endpoints.isError ? (
        <LoadFailed
          title={t`The endpoints did not load`}
          error={endpoints.error}
          isRetrying={endpoints.isFetching}
          onRetry={() => endpoints.refetch()}
        />
      ) : endpoints.isPending ? (
        <Text c="dimmed">
          <Trans>Loading endpoints…</Trans>
        </Text>
      ) : endpoints.data.items.length === 0 ? (
        <Text>
          <Trans>No endpoints yet.</Trans>
        </Text>
      ) : (
        endpoints.data.items.map((endpoint) => (
          <EndpointCard key={endpoint.id} endpoint={endpoint} onSecret={setSecret} />
        ))
      )}
    </Stack>
  );
}
