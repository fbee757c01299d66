import type { StaffDispute } from '@coffer/contracts/disputes';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { NotFoundContent } from '../../../components/not-found-content.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { entryKindLabel } from '../../../lib/entry-kinds.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { disputeByReferenceQueryOptions } from '../api.ts';
import { DisputeDecisionForm } from '../components/dispute-decision-form.tsx';
import { DisputeStatusBadge } from '../components/dispute-status-badge.tsx';
import { disputeProblemTypeLabels } from '../labels.ts';
import classes from './dispute-case-page.module.css';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}

function RefundFact({ refund }: { refund: NonNullable<StaffDispute['refund']> }) {
  const { t } = useLingui();
  const amount = formatAmountMinor(refund.amountMinor, refund.currency);
  const text =
    refund.status === 'pending_approval'
      ? t`${amount} (waiting for a second admin)`
      : refund.status === 'posted'
        ? t`${amount} (posted)`
        : t`${amount} (rejected)`;
  return <Fact label={t`Refund`}>{text}</Fact>;
}

function CaseDetails({ dispute }: { dispute: StaffDispute }) {
  const { t, i18n } = useLingui();
  const linked = dispute.linkedTransaction;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Fact label={t`Customer`}>
            <Anchor component={Link} to={`/admin/users/${dispute.userId}`}>
              {dispute.username}
            </Anchor>
          </Fact>
          <Fact label={t`Problem`}>{i18n._(disputeProblemTypeLabels[dispute.problemType])}</Fact>
          <Fact label={t`Amount`}>{formatAmountMinor(dispute.amountMinor, dispute.currency)}</Fact>
          {/* None on a dispute about a card, bill or deposit line: the linked line says it all. */}
          {dispute.recipientAccountNumber ? (
            <Fact label={t`Recipient's account number`}>
              <Text ff="monospace">{dispute.recipientAccountNumber}</Text>
            </Fact>
          ) : null}
          <Fact label={t`Description`}>
            <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {dispute.description}
            </Text>
          </Fact>
          <Fact label={t`Filed`}>{formatDateTime(dispute.createdAt)}</Fact>
          {dispute.resolutionNote ? (
            <Fact label={t`Note to the customer`}>
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {dispute.resolutionNote}
              </Text>
            </Fact>
          ) : null}
          {dispute.refund ? <RefundFact refund={dispute.refund} /> : null}
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-label={t`Linked transaction`}>
        <Title order={2} size="h4" mb="sm">
          <Trans>Linked transaction</Trans>
        </Title>
        {linked ? (
          <Stack gap="sm">
            <Fact label={t`Type`}>{entryKindLabel(i18n, linked.kind)}</Fact>
            <Fact label={t`Amount`}>
              {formatAmountMinor(linked.amountMinor, linked.currency, { signDisplay: 'always' })}
            </Fact>
            <Fact label={t`Memo`}>{linked.memo}</Fact>
            <Fact label={t`Date`}>{formatDateTime(linked.createdAt)}</Fact>
          </Stack>
        ) : (
          <Text c="dimmed">
            <Trans>The customer did not link a transaction.</Trans>
          </Text>
        )}
      </Card>
    </SimpleGrid>
  );
}

/** `/admin/disputes/:reference`: one case, the transaction it names, and the next step. */
export function DisputeCasePage() {
  const { t } = useLingui();
  const { reference = '' } = useParams();
  usePageTitle(t`Dispute ${reference}`);
  const dispute = useQuery(disputeByReferenceQueryOptions(reference));
  if (dispute.isError && dispute.error instanceof ApiError && dispute.error.status === 404) {
    return <NotFoundContent isInsideShell />;
  }
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/admin/queues/disputes">
        <Group gap={4}>
          <ArrowLeft size={16} aria-hidden className={classes.backArrow} />{' '}
          <Trans>Disputes queue</Trans>
        </Group>
      </Anchor>
      <Group gap="sm">
        <Title order={1} ff="monospace">
          {reference}
        </Title>
        {dispute.data ? <DisputeStatusBadge status={dispute.data.status} /> : null}
      </Group>
      {dispute.isPending ? (
        <LoadingState label={t`Loading the dispute`} />
      ) : dispute.isError ? (
        <LoadFailed
          title={t`The dispute did not load`}
          error={dispute.error}
          isRetrying={dispute.isFetching}
          onRetry={() => dispute.refetch()}
        />
      ) : (
        <>
          <CaseDetails dispute={dispute.data} />
          {dispute.data.refund?.status === 'pending_approval' ? (
            <Text>
              <Trans>
                The refund waits for an admin in the deposits queue. The case is resolved when it is
                approved, and comes back here if it is rejected.
              </Trans>
            </Text>
          ) : dispute.data.status === 'pending' || dispute.data.status === 'investigating' ? (
            <DisputeDecisionForm key={dispute.data.status} dispute={dispute.data} />
          ) : null}
        </>
      )}
    </Stack>
  );
}
