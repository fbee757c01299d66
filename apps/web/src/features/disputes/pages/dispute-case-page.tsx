import { disputeProblemTypeLabels, type StaffDispute } from '@coffer/contracts/disputes';
import { entryKindLabel } from '@coffer/contracts/ledger';
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
import { formatAmountMinor } from '../../../lib/money.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { disputeByReferenceQueryOptions } from '../api.ts';
import { DisputeDecisionForm } from '../components/dispute-decision-form.tsx';
import { DisputeStatusBadge } from '../components/dispute-status-badge.tsx';

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

function CaseDetails({ dispute }: { dispute: StaffDispute }) {
  const linked = dispute.linkedTransaction;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Fact label="Customer">
            <Anchor component={Link} to={`/admin/users/${dispute.userId}`}>
              {dispute.username}
            </Anchor>
          </Fact>
          <Fact label="Problem">{disputeProblemTypeLabels[dispute.problemType]}</Fact>
          <Fact label="Amount">{formatAmountMinor(dispute.amountMinor, dispute.currency)}</Fact>
          {/* None on a dispute about a card, bill or deposit line: the linked line says it all. */}
          {dispute.recipientAccountNumber ? (
            <Fact label="Recipient's account number">
              <Text ff="monospace">{dispute.recipientAccountNumber}</Text>
            </Fact>
          ) : null}
          <Fact label="Description">
            <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {dispute.description}
            </Text>
          </Fact>
          <Fact label="Filed">{formatDateTime(dispute.createdAt)}</Fact>
          {dispute.resolutionNote ? (
            <Fact label="Note to the customer">
              <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {dispute.resolutionNote}
              </Text>
            </Fact>
          ) : null}
          {dispute.refund ? (
            <Fact label="Refund">
              {formatAmountMinor(dispute.refund.amountMinor, dispute.refund.currency)} (
              {dispute.refund.status === 'pending_approval'
                ? 'waiting for a second admin'
                : dispute.refund.status}
              )
            </Fact>
          ) : null}
        </Stack>
      </Card>
      <Card withBorder padding="lg" component="section" aria-label="Linked transaction">
        <Title order={2} size="h4" mb="sm">
          Linked transaction
        </Title>
        {linked ? (
          <Stack gap="sm">
            <Fact label="Type">{entryKindLabel(linked.kind)}</Fact>
            <Fact label="Amount">
              {formatAmountMinor(linked.amountMinor, linked.currency, { signDisplay: 'always' })}
            </Fact>
            <Fact label="Memo">{linked.memo}</Fact>
            <Fact label="Date">{formatDateTime(linked.createdAt)}</Fact>
          </Stack>
        ) : (
          <Text c="dimmed">The customer did not link a transaction.</Text>
        )}
      </Card>
    </SimpleGrid>
  );
}

/** `/admin/disputes/:reference`: one case, the transaction it names, and the next step. */
export function DisputeCasePage() {
  const { reference = '' } = useParams();
  usePageTitle(`Dispute ${reference}`);
  const dispute = useQuery(disputeByReferenceQueryOptions(reference));
  if (dispute.isError && dispute.error instanceof ApiError && dispute.error.status === 404) {
    return <NotFoundContent isInsideShell />;
  }
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/admin/queues/disputes">
        <Group gap={4}>
          <ArrowLeft size={16} aria-hidden /> Disputes queue
        </Group>
      </Anchor>
      <Group gap="sm">
        <Title order={1} ff="monospace">
          {reference}
        </Title>
        {dispute.data ? <DisputeStatusBadge status={dispute.data.status} /> : null}
      </Group>
      {dispute.isPending ? (
        <LoadingState label="Loading the dispute" />
      ) : dispute.isError ? (
        <LoadFailed
          title="The dispute did not load"
          error={dispute.error}
          isRetrying={dispute.isFetching}
          onRetry={() => dispute.refetch()}
        />
      ) : (
        <>
          <CaseDetails dispute={dispute.data} />
          {dispute.data.refund?.status === 'pending_approval' ? (
            <Text>
              The refund waits for an admin in the deposits queue. The case is resolved when it is
              approved, and comes back here if it is rejected.
            </Text>
          ) : dispute.data.status === 'pending' || dispute.data.status === 'investigating' ? (
            <DisputeDecisionForm key={dispute.data.status} dispute={dispute.data} />
          ) : null}
        </>
      )}
    </Stack>
  );
}
