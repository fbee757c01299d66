import { Trans, useLingui } from '@lingui/react/macro';
import { Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { auditActionNames } from '../../audit/index.ts';
import { activityQueryOptions } from '../api.ts';

/**
 * The customer-visible audit entries (PRODUCT.md section 0, rule 5): every staff action on
 * the account with its reason, and the account's own security events.
 */
export function ActivityCard() {
  const { t, i18n } = useLingui();
  const activity = useInfiniteQuery(activityQueryOptions);
  const headingId = 'activity-heading';
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Activity on your account</Trans>
      </Title>
      {activity.isPending && <Loader size="sm" aria-label={t`Loading your account's activity`} />}
      {activity.isError && (
        <LoadFailed
          error={activity.error}
          isRetrying={activity.isFetching}
          onRetry={() => activity.refetch()}
        />
      )}
      {activity.isSuccess && items.length === 0 && (
        <Text c="dimmed">
          <Trans>Nothing has happened on your account yet.</Trans>
        </Text>
      )}
      {items.length > 0 && (
        <Stack component="ul" gap={0} p={0} m={0} style={{ listStyle: 'none' }}>
          {items.map((item, index) => {
            const reason = item.reason;
            return (
              <Stack
                component="li"
                key={item.id}
                gap={2}
                py="sm"
                style={
                  index === 0
                    ? undefined
                    : { borderTop: '1px solid var(--mantine-color-default-border)' }
                }
              >
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Group gap="xs" wrap="wrap">
                    <Text fw={600}>{i18n._(auditActionNames[item.action])}</Text>
                    {item.isByStaff && (
                      <Badge variant="light" color="gray" size="sm">
                        <Trans>By staff</Trans>
                      </Badge>
                    )}
                  </Group>
                  <Text size="sm" c="dimmed">
                    {formatDateTime(item.createdAt)}
                  </Text>
                </Group>
                {reason && (
                  <Text size="sm">
                    <Trans>Reason: {reason}</Trans>
                  </Text>
                )}
              </Stack>
            );
          })}
        </Stack>
      )}
      {activity.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button
            variant="default"
            loading={activity.isFetchingNextPage}
            onClick={() => activity.fetchNextPage()}
          >
            <Trans>Load more</Trans>
          </Button>
        </Group>
      )}
    </Card>
  );
}
