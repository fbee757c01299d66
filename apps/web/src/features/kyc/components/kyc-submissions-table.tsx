import type { StaffKycSubmission } from '@coffer/contracts/kyc';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { formatDateTime, formatUtcDay } from '../../../lib/dates.ts';
import { idTypeNames } from '../api.ts';
import {
  type KycDecision,
  KycDecisionDialog,
  type KycDecisionTarget,
} from './kyc-decision-dialog.tsx';
import { KycDocumentViewer } from './kyc-document-viewer.tsx';
import { KycStatusBadge } from './kyc-status-badge.tsx';

function StatusCell({ submission }: { submission: StaffKycSubmission }) {
  const sentAt = formatDateTime(submission.createdAt);
  const reviewer = submission.reviewer?.username;
  const reason = submission.reason;
  return (
    <Stack gap={2} align="flex-start">
      <KycStatusBadge status={submission.status} />
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        <Trans>Sent {sentAt}</Trans>
      </Text>
      {reviewer !== undefined && (
        <Text size="xs" c="dimmed">
          {reason ? (
            <Trans>
              by {reviewer}: {reason}
            </Trans>
          ) : (
            <Trans>by {reviewer}</Trans>
          )}
        </Text>
      )}
    </Stack>
  );
}

function BornOn({ day }: { day: string }) {
  const bornOn = formatUtcDay(day);
  return <Trans>Born {bornOn}</Trans>;
}

/**
 * Verifications with what staff need to decide them: the details, the review (the document
 * beside the details, each opening audited), and Approve / Reject while pending. Narrow
 * enough that the actions fit at 1,280 px beside the menu; the address is in the review.
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
  const { t, i18n } = useLingui();
  const decisionDialog = useDialogTarget<KycDecisionTarget>();
  const viewer = useDialogTarget<StaffKycSubmission>();
  const columns: Column<StaffKycSubmission>[] = [
    ...(isCustomerShown
      ? [
          {
            key: 'customer',
            header: t`Customer`,
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
      key: 'person',
      header: t`Name on ID`,
      cell: (submission) => (
        <Stack gap={0}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {submission.legalName ?? <Trans>Not asked</Trans>}
          </Text>
          <Text size="xs" c="dimmed">
            <BornOn day={submission.dateOfBirth} />
          </Text>
        </Stack>
      ),
    },
    {
      key: 'id',
      header: t`ID`,
      cell: (submission) => (
        <Stack gap={0}>
          <Text size="sm">{i18n._(idTypeNames[submission.idType])}</Text>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {submission.idNumber}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'status',
      header: t`Status`,
      cell: (submission) => <StatusCell submission={submission} />,
    },
    {
      key: 'actions',
      header: t`Actions`,
      isHeaderHidden: true,
      align: 'right',
      cell: (submission) => {
        const { username } = submission.user;
        return (
          <Group gap="xs" justify="flex-end">
            <Button
              size="compact-sm"
              variant="light"
              // No focus target of our own: a decision taken in the review moves focus into
              // its dialog, which the review's closing must not take back (Mantine returns it
              // to this button when the review is just closed).
              onClick={() => viewer.open(submission)}
              aria-label={t`Review the verification of ${username}`}
            >
              <Trans>Review</Trans>
            </Button>
            {submission.status === 'pending' && (
              <>
                <Button
                  size="compact-sm"
                  onClick={() => decisionDialog.open({ submission, decision: 'approve' })}
                  aria-label={t`Approve the verification of ${username}`}
                >
                  <Trans>Approve</Trans>
                </Button>
                <Button
                  size="compact-sm"
                  variant="default"
                  color="red"
                  onClick={() => decisionDialog.open({ submission, decision: 'reject' })}
                  aria-label={t`Reject the verification of ${username}`}
                >
                  <Trans>Reject</Trans>
                </Button>
              </>
            )}
          </Group>
        );
      },
    },
  ];
  // From the review, a decision replaces it: the viewer closes as its dialog opens.
  const decideFromReview = (submission: StaffKycSubmission, decision: KycDecision) => {
    viewer.dialogProps.onClose();
    decisionDialog.open({ submission, decision });
  };
  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={submissions}
        rowKey={(submission) => submission.id}
        minWidth={720}
      />
      <KycDecisionDialog target={decisionDialog.target} {...decisionDialog.dialogProps} />
      <KycDocumentViewer
        submission={viewer.target}
        {...viewer.dialogProps}
        onDecide={decideFromReview}
      />
    </>
  );
}
