import { Alert, Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/dates.ts';
import { webhookAlertsQueryOptions } from '../api.ts';

/**
 * The staff home's warning that the delivery job turned webhook endpoints off after 24
 * hours of failures: integrators are no longer told when money moves. Nothing otherwise.
 */
export function WebhookAlerts() {
  const alerts = useQuery(webhookAlertsQueryOptions);
  const items = alerts.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Alert color="red" title="Webhook endpoints turned off" data-testid="webhook-alert">
      {items.map((item) => (
        <Text key={item.id} size="sm" style={{ wordBreak: 'break-all' }}>
          <Anchor component={Link} to="/admin/webhooks">
            {item.url}
          </Anchor>
          {item.disabledAt ? ` — off since ${formatDateTime(item.disabledAt)}` : ''}: every delivery
          failed for 24 hours.
        </Text>
      ))}
    </Alert>
  );
}
