import {
  type KycDocument,
  kycDocumentBytesMax,
  kycDocumentTooLargeMessage,
  kycUploadedMessage,
  kycUploadFailedMessage,
} from '@coffer/contracts/kyc';
import { Trans, useLingui } from '@lingui/react/macro';
import { FileInput, Progress, Stack, Text } from '@mantine/core';
import { CircleCheck, Upload } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';
import { uploadKycDocument } from '../api.ts';

type UploadState =
  | { step: 'idle' }
  | { step: 'uploading'; percent: number }
  | { step: 'uploaded'; document: KycDocument }
  | { step: 'failed'; message: string };

/** PRODUCT.md section 4: the failure, with its cause. */
function failureMessage(cause: string): string {
  return `${kycUploadFailedMessage} ${cause}`;
}

function UploadProgressText({ percent }: { percent: number }) {
  return <Trans>Uploading… {percent}%</Trans>;
}

/**
 * The ID document: uploaded as soon as it is chosen, with a progress bar driven by the
 * upload's own progress events. The server decides the type from the bytes; the size is
 * checked here first so nobody waits for a 20 MB file to be refused.
 */
export function DocumentUploadField({
  error,
  onUploaded,
}: {
  /** The form's message for the field (no document yet). */
  error: string | undefined;
  onUploaded: (document: KycDocument | null) => void;
}) {
  const { t } = useLingui();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState>({ step: 'idle' });

  const upload = async (chosen: File | null) => {
    setFile(chosen);
    onUploaded(null);
    if (!chosen) {
      setState({ step: 'idle' });
      return;
    }
    if (chosen.size > kycDocumentBytesMax) {
      setState({ step: 'failed', message: failureMessage(kycDocumentTooLargeMessage) });
      return;
    }
    setState({ step: 'uploading', percent: 0 });
    try {
      const document = await uploadKycDocument(chosen, (fraction) =>
        setState({ step: 'uploading', percent: Math.round(fraction * 100) }),
      );
      setState({ step: 'uploaded', document });
      onUploaded(document);
    } catch (uploadError) {
      setState({ step: 'failed', message: failureMessage(errorMessage(uploadError)) });
    }
  };

  const shownError = state.step === 'failed' ? state.message : error;
  return (
    <Stack gap={6}>
      <FileInput
        label={t`ID document`}
        description={t`A photo or scan of your ID: JPEG, PNG or PDF, at most 10 MB`}
        placeholder={t`Choose a file`}
        // Mantine's placeholder grey is too faint on white for WCAG AA.
        styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
        accept="image/jpeg,image/png,application/pdf"
        required
        clearable
        leftSection={<Upload size={16} aria-hidden />}
        value={file}
        onChange={(chosen) => void upload(chosen)}
        disabled={state.step === 'uploading'}
        error={shownError}
      />
      {state.step === 'uploading' && (
        <Stack gap={2}>
          <Progress
            value={state.percent}
            size="lg"
            aria-label={t`Upload progress`}
            transitionDuration={0}
          />
          <Text size="xs" c="dimmed" aria-live="polite">
            <UploadProgressText percent={state.percent} />
          </Text>
        </Stack>
      )}
      {state.step === 'uploaded' && (
        <Text size="sm" c="green.8" role="status">
          <CircleCheck size={14} aria-hidden style={{ verticalAlign: -2 }} /> {kycUploadedMessage}
        </Text>
      )}
    </Stack>
  );
}
