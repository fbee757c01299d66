import { kycIdTypeLabels, type StaffKycSubmission } from '@coffer/contracts/kyc';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { formatDateTime, formatUtcDay } from '../../../lib/dates.ts';
import { KycDecisionDialog, type KycDecisionTarget } from './kyc-decision-dialog.tsx';
import { KycDocumentViewer } from './kyc-document-viewer.tsx';
import { KycStatusBadge } from './kyc-status-badge.tsx';

function StatusCell({ submission }: { submission: StaffKycSubmission }) {
  return (
    <Stack gap={2} align="flex-start">
      <KycStatusBadge status={submission.status} />
      {submission.reviewer && (
        <Text size="xs" c="dimmed">
          by {submission.reviewer.username}
          {submission.reason ? `: ${submission.reason}` : ''}
        </Text>
      )}
    </Stack>
  );
}

/**
 * Verifications with what staff need to decide them: the details, the document (opened in
 * a viewer, each opening audited), and Approve / Reject while pending.
 */
export function KycSubmissionsTable({
  label,
  submissions,
  isCustomerShown,
}: {
  label: string;
  submissions: readonly StaffKycSubmission[];
  isCustomerShown: boolean;
}) {
  const decisionDialog = useDialogTarget<KycDecisionTarget>();
  const viewer = useDialogTarget<StaffKycSubmission>();
  const columns: Column<StaffKycSubmission>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: 'Customer',
            cell: (submission: StaffKycSubmission) => (
              <Stack gap={0}>
                <Anchor
                  component={Link}
                  to={`/admin/users/${submission.user.id}?tab=kyc`}
                  fw={600}
                  size="sm"
                >
                  {submission.user.username}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {submission.user.email}
                </Text>
              </Stack>
            ),
          },
        ]
      : []),
    {
      key: 'id',
      header: 'ID',
      cell: (submission) => (
        <Stack gap={0}>
          <Text size="sm">{kycIdTypeLabels[submission.idType]}</Text>
          <Text size="sm" ff="monospace">
            {submission.idNumber}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'person',
      header: 'Born, address',
      cell: (submission) => (
        <Stack gap={0}>
          <Text size="sm">{formatUtcDay(submission.dateOfBirth)}</Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {submission.address}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'document',
      header: 'Document',
      cell: (submission) =>
        submission.document.isAvailable ? (
          <Button
            size="compact-sm"
            variant="light"
            onClick={(event) => viewer.open(submission, event.currentTarget)}
            aria-label={`View the ID document of ${submission.user.username}`}
          >
            View document
          </Button>
        ) : (
          <Text size="xs" c="dimmed">
            Deleted after the retention period
          </Text>
        ),
    },
    {
      key: 'submitted',
      header: 'Submitted',
      cell: (submission) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(submission.createdAt)}
        </Text>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (submission) => <StatusCell submission={submission} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      isHeaderHidden: true,
      align: 'right',
      isEmpty: (submission) => submission.status !== 'pending',
      cell: (submission) =>
        submission.status === 'pending' && (
          <Group gap="xs" wrap="nowrap" justify="flex-end">
            <Button
              size="compact-sm"
              onClick={() => decisionDialog.open({ submission, decision: 'approve' })}
              aria-label={`Approve the verification of ${submission.user.username}`}
            >
              Approve
            </Button>
            <Button
              size="compact-sm"
              variant="default"
              color="red"
              onClick={() => decisionDialog.open({ submission, decision: 'reject' })}
              aria-label={`Reject the verification of ${submission.user.username}`}
            >
              Reject
            </Button>
          </Group>
        ),
    },
  ];
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={submissions}
        rowKey={(submission) => submission.id}
        minWidth={960}
      />
      <KycDecisionDialog target={decisionDialog.target} {...decisionDialog.dialogProps} />
      <KycDocumentViewer submission={viewer.target} {...viewer.dialogProps} />
    </>
  );
}
