import { Trans, useLingui } from '@lingui/react/macro';
import { Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { kycOverviewQueryOptions } from '../api.ts';
import { KycForm } from '../components/kyc-form.tsx';
import { KycStatusCard } from '../components/kyc-status-card.tsx';

/** Who sees the document and how long it is kept (issue #14, retention). */
function PrivacyNote({ retentionDays }: { retentionDays: number }) {
  return (
    <Text size="sm" c="dimmed" maw={640}>
      <Trans>
        Privacy: your document is stored encrypted, and only our staff who review verifications can
        open it; each opening is recorded in your account's activity. If your verification is
        approved, we keep the document while your account exists. If it is rejected, or replaced by
        a newer approved one, we delete it after {retentionDays} days. Verification is free: we
        never ask for a fee or a code to verify you.
      </Trans>
    </Text>
  );
}

export function KycPage() {
  const { t } = useLingui();
  usePageTitle(t`Identity verification`);
  const overview = useQuery(kycOverviewQueryOptions);
  const status = overview.data?.latest?.status;
  return (
    <Stack gap="lg" maw={880}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Identity verification</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>Verify your identity to withdraw money and apply for loans.</Trans>
        </Text>
      </Stack>
      {overview.isPending ? (
        <Center py="xl">
          <Loader aria-label={t`Loading`} />
        </Center>
      ) : overview.isError ? (
        <LoadFailed
          title={t`Your verification status did not load`}
          error={overview.error}
          isRetrying={overview.isFetching}
          onRetry={() => overview.refetch()}
        />
      ) : (
        <>
          <KycStatusCard overview={overview.data} />
          {(status === undefined || status === 'rejected') && (
            // A new rejection starts a new form from its own details.
            <KycForm
              key={overview.data.latest?.id ?? 'first'}
              rejected={overview.data.rejectedDetails}
            />
          )}
          <PrivacyNote retentionDays={overview.data.retentionDays} />
        </>
      )}
    </Stack>
  );
}
