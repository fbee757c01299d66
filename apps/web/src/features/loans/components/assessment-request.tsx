import type { LoanOverview } from '@coffer/contracts/loans';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { loanOverviewQueryOptions, requestAssessment } from '../api.ts';

function useRequestAssessment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestAssessment,
    onSuccess: (overview) => queryClient.setQueryData(loanOverviewQueryOptions.queryKey, overview),
    onError: (error) => showErrorToast(errorMessage(error)),
  });
}

/** Said once the customer has asked, until staff decide (then the bell tells them). */
export function AssessmentRequested({ requestedAt }: { requestedAt: string }) {
  const { t } = useLingui();
  const askedAt = formatDateTime(requestedAt);
  return (
    <Alert color="blue" variant="light" title={t`Assessment requested`}>
      <Trans>
        Staff will assess what you may borrow. We will notify you when it is decided. Asked{' '}
        {askedAt}.
      </Trans>
    </Alert>
  );
}

/**
 * Before any eligibility: the customer asks for an assessment here (issue #31 item 2), and
 * it lands in the staff's loans queue. Free, like everything support does.
 */
export function AssessmentRequestCard({ overview }: { overview: LoanOverview }) {
  const { t } = useLingui();
  const ask = useRequestAssessment();
  if (overview.assessmentRequestedAt) {
    return <AssessmentRequested requestedAt={overview.assessmentRequestedAt} />;
  }
  return (
    <Card withBorder padding="lg" component="section" aria-label={t`Loan assessment`}>
      <Stack gap="sm">
        {overview.assessmentDeclinedReason && (
          <Alert color="red" variant="light" title={t`Your last assessment was declined`}>
            <Text size="sm">{overview.assessmentDeclinedReason}</Text>
            <Text size="sm">
              <Trans>You may ask again when things change.</Trans>
            </Text>
          </Alert>
        )}
        <Title order={2}>
          <Trans>Find out what you may borrow</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            Before you apply, staff assess what you may borrow from your account. Ask for an
            assessment: it is free, and we will notify you when it is decided.
          </Trans>
        </Text>
        <Group justify="flex-end">
          <Button loading={ask.isPending} onClick={() => ask.mutate()}>
            <Trans>Ask for an assessment</Trans>
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** Once assessed, the customer may ask for another look (a raise, say). */
export function AskAgainButton() {
  const ask = useRequestAssessment();
  return (
    <Button variant="subtle" size="compact-sm" loading={ask.isPending} onClick={() => ask.mutate()}>
      <Trans>Ask for a new assessment</Trans>
    </Button>
  );
}
