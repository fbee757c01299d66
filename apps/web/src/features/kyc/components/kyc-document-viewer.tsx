import type { StaffKycSubmission } from '@coffer/contracts/kyc';
import { Anchor, Box, Stack, Text } from '@mantine/core';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { kycDocumentUrl } from '../api.ts';

/**
 * The document, inside the back office: an image inline, a PDF in the browser's own
 * viewer. The server sends it with a policy that keeps it inert, and records each opening.
 */
export function KycDocumentViewer({
  submission,
  opened,
  onClose,
  onExited,
}: {
  submission: StaffKycSubmission | null;
  opened: boolean;
  onClose: () => void;
  onExited: () => void;
}) {
  const url = submission ? kycDocumentUrl(submission.id) : '';
  const title = submission ? `ID document of ${submission.user.username}` : 'ID document';
  return (
    <ModalOnDemand
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={title}
      size="xl"
      centered
    >
      {submission && (
        <Stack gap="sm">
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            SHA-256 {submission.document.sha256}
          </Text>
          {submission.document.mediaType === 'application/pdf' ? (
            <Box
              component="iframe"
              src={url}
              title={title}
              w="100%"
              h="70vh"
              bd="1px solid gray.3"
            />
          ) : (
            <Box
              component="img"
              src={url}
              alt={title}
              maw="100%"
              mah="70vh"
              style={{ objectFit: 'contain' }}
            />
          )}
          <Anchor href={url} target="_blank" rel="noopener" size="sm">
            Open in a new tab
          </Anchor>
        </Stack>
      )}
    </ModalOnDemand>
  );
}
