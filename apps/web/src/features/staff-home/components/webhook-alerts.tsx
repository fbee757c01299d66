import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/dates.ts';
import { webhookAlertsQueryOptions } from '../api.ts';

function DisabledEndpoint({ url, disabledAt }: { url: string; disabledAt: string | null }) {
  const endpoint = (
    <Anchor component={Link} to="/admin/webhooks">
      <bdi>{url}</bdi>
    </Anchor>
  );
  if (disabledAt === null) {
    return <Trans>{endpoint}: every delivery failed for 24 hours.</Trans>;
  }
  const offSince = formatDateTime(disabledAt);
  return (
    <Trans>
      {endpoint} — off since {offSince}: every delivery failed for 24 hours.
    </Trans>
  );
}

/**
 * The staff home's warning that the delivery job turned webhook endpoints off after 24
 * hours of failures: integrators are no longer told when money moves. Nothing otherwise.
 */
export function WebhookAlerts() {
  const { t } = useLingui();
  const alerts = useQuery(webhookAlertsQueryOptions);
  const items = alerts.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Alert color="red" title={t`Webhook endpoints turned off`} data-testid="webhook-alert">
      {items.map((item) => (
        <Text key={item.id} size="sm" style={{ wordBreak: 'break-all' }}>
          <DisabledEndpoint url={item.url} disabledAt={item.disabledAt} />
        </Text>
      ))}
    </Alert>
  );
}
