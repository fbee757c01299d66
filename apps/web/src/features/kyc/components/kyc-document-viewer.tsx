import type { StaffKycSubmission } from '@coffer/contracts/kyc';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Box, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { formatDateTime, formatUtcDay } from '../../../lib/dates.ts';
import { idTypeNames, kycDocumentUrl } from '../api.ts';
import type { KycDecision } from './kyc-decision-dialog.tsx';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Box>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Box>
  );
}

/**
 * What the customer typed, to check against the document beside it. Every value is React
 * text, so a name or address is shown as written, never read as markup.
 */
function SubmittedDetails({ submission }: { submission: StaffKycSubmission }) {
  const { t, i18n } = useLingui();
  return (
    <Stack component="dl" gap="sm" m={0} aria-label={t`Submitted details`}>
      <Detail label={t`Legal name`}>
        {submission.legalName ?? <Trans>Not asked: submitted before the form asked for it</Trans>}
      </Detail>
      <Detail label={i18n._(idTypeNames[submission.idType])}>
        <Text span ff="monospace" inherit>
          {submission.idNumber}
        </Text>
      </Detail>
      <Detail label={t`Date of birth`}>{formatUtcDay(submission.dateOfBirth)}</Detail>
      <Detail label={t`Address`}>
        <Text span inherit style={{ whiteSpace: 'pre-line' }}>
          {submission.address}
        </Text>
      </Detail>
      <Detail label={t`Customer`}>
        {submission.user.username} · {submission.user.email}
      </Detail>
      <Detail label={t`Submitted`}>{formatDateTime(submission.createdAt)}</Detail>
    </Stack>
  );
}

function DocumentShown({ submission, title }: { submission: StaffKycSubmission; title: string }) {
  const url = kycDocumentUrl(submission.id);
  const { sha256 } = submission.document;
  if (!submission.document.isAvailable) {
    return (
      <Text size="sm" c="dimmed">
        <Trans>The document was deleted after the retention period.</Trans>
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {submission.document.mediaType === 'application/pdf' ? (
        <Box component="iframe" src={url} title={title} w="100%" h="70vh" bd="1px solid gray.3" />
      ) : (
        <Box
          component="img"
          src={url}
          alt={title}
          maw="100%"
          mah="70vh"
          style={{ objectFit: 'contain', alignSelf: 'flex-start' }}
        />
      )}
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        <Trans>SHA-256 {sha256}</Trans>
      </Text>
      <Anchor href={url} target="_blank" rel="noopener" size="sm">
        <Trans>Open in a new tab</Trans>
      </Anchor>
    </Stack>
  );
}

/**
 * The review of a verification (issue #31 item 6): the document and the details it is
 * checked against side by side, stacked on a phone, with the decision while pending. The
 * server sends the document with a policy that keeps it inert, and records each opening.
 */
export function KycDocumentViewer({
  submission,
  opened,
  onClose,
  onExited,
  onDecide,
}: {
  submission: StaffKycSubmission | null;
  opened: boolean;
  onClose: () => void;
  onExited: () => void;
  onDecide: (submission: StaffKycSubmission, decision: KycDecision) => void;
}) {
  const { t } = useLingui();
  const username = submission?.user.username;
  const title = username === undefined ? t`ID document` : t`ID document of ${username}`;
  return (
    <ModalOnDemand
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={title}
      size="72rem"
      centered
    >
      {submission && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Box data-testid="kyc-review-document" miw={0}>
            <DocumentShown submission={submission} title={title} />
          </Box>
          <Stack data-testid="kyc-review-details" gap="md" miw={0} style={{ alignSelf: 'start' }}>
            <SubmittedDetails submission={submission} />
            {submission.status === 'pending' && (
              <Group gap="xs">
                <Button onClick={() => onDecide(submission, 'approve')}>
                  <Trans>Approve</Trans>
                </Button>
                <Button
                  variant="default"
                  color="red"
                  onClick={() => onDecide(submission, 'reject')}
                >
                  <Trans>Reject</Trans>
                </Button>
              </Group>
            )}
          </Stack>
        </SimpleGrid>
      )}
    </ModalOnDemand>
  );
}
