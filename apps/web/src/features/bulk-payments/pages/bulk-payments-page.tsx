import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { bulkPaymentsQueryOptions } from '../api.ts';
import { BulkFileCard } from '../components/bulk-file-card.tsx';
import { BulkPaymentsTable } from '../components/bulk-payments-table.tsx';
import { BulkUploadCard } from '../components/bulk-upload-card.tsx';

function RecentFiles({ onOpen }: { onOpen: (bulkPaymentId: string) => void }) {
  const { t } = useLingui();
  const query = useQuery(bulkPaymentsQueryOptions);
  if (query.isPending) return <LoadingState label={t`Loading your files`} />;
  if (query.isError) {
    return (
      <LoadFailed
        error={query.error}
        isRetrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.items.length === 0) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-label={t`Your files`}>
      <Title order={2} mb="md">
        <Trans>Your files</Trans>
      </Title>
      <BulkPaymentsTable items={query.data.items} onOpen={onOpen} />
    </Card>
  );
}

export function BulkPaymentsPage() {
  const { t } = useLingui();
  usePageTitle(t`Bulk payments`);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <Stack gap="lg" maw={1040}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Bulk payments</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Pay many people at once from a CSV file: upload it, check the summary and confirm the
            total with your verification code.
          </Trans>
        </Text>
      </Stack>
      <BulkUploadCard onChecked={(checked) => setOpenId(checked.id)} />
      {openId && <BulkFileCard key={openId} bulkPaymentId={openId} />}
      <RecentFiles onOpen={setOpenId} />
    </Stack>
  );
}
