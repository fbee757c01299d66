import {
  type BulkPayment,
  bulkFileTooLargeMessage,
  bulkPaymentBytesMax,
  bulkPaymentColumns,
  problemLinesOf,
} from '@coffer/contracts/bulk-payments';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, FileInput, List, Progress, Stack, Text, Title } from '@mantine/core';
import { Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { uploadBulkFile } from '../api.ts';
import { problemPlace } from '../problem-place.ts';

type UploadState =
  | { step: 'idle' }
  | { step: 'uploading'; percent: number }
  | { step: 'refused'; message: string; problems: { place: string; message: string }[] };

function UploadPercent({ percent }: { percent: number }) {
  return <Trans>Uploading and checking… {percent}%</Trans>;
}

/**
 * Choose a CSV file: it is sent with a progress bar and checked whole by the server. A
 * refused file lists every problem by line, for the customer to fix and send again;
 * nothing of it is paid.
 */
export function BulkUploadCard({ onChecked }: { onChecked: (checked: BulkPayment) => void }) {
  const { t, i18n } = useLingui();
  const headingId = useId();
  const columns = bulkPaymentColumns.join(',');
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<UploadState>({ step: 'idle' });

  const upload = async (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) return setState({ step: 'idle' });
    // Told before sending 20 MB for nothing; the server checks it again.
    if (chosen.size > bulkPaymentBytesMax) {
      return setState({ step: 'refused', message: bulkFileTooLargeMessage(), problems: [] });
    }
    setState({ step: 'uploading', percent: 0 });
    try {
      const checked = await uploadBulkFile(chosen, (fraction) =>
        setState({ step: 'uploading', percent: Math.round(fraction * 100) }),
      );
      setState({ step: 'idle' });
      setFile(null);
      onChecked(checked);
    } catch (error) {
      const problems = error instanceof ApiError ? problemLinesOf(error.fields) : [];
      setState({ step: 'refused', message: errorMessage(error), problems });
    }
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Title order={2} id={headingId}>
          <Trans>Upload a file</Trans>
        </Title>
        <Text size="sm">
          <Trans>
            A CSV file with the header <code>{columns}</code> and one payment a line: the
            recipient's 10-digit account number or email, the amount in your wallet's currency (like
            12.50) and a reference they will see. Up to 10,000 lines. Nothing is paid until you
            confirm the total.
          </Trans>
        </Text>
        <FileInput
          label={t`Payments file (CSV)`}
          placeholder={t`Choose a file`}
          styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
          accept=".csv,text/csv"
          clearable
          clearButtonProps={{ 'aria-label': t`Clear the chosen file` }}
          leftSection={<Upload size={16} aria-hidden />}
          value={file}
          onChange={(chosen) => void upload(chosen)}
          disabled={state.step === 'uploading'}
        />
        {state.step === 'uploading' && (
          <Stack gap={2}>
            <Progress value={state.percent} size="lg" aria-label={t`Upload progress`} />
            <Text size="xs" c="dimmed" aria-live="polite">
              <UploadPercent percent={state.percent} />
            </Text>
          </Stack>
        )}
        {state.step === 'refused' && (
          <Stack gap="xs">
            <FormAlert message={state.message} />
            {state.problems.length > 0 && (
              <List size="sm" spacing={4} aria-label={t`Problems by line`}>
                {state.problems.map((problem) => (
                  <List.Item key={problem.place}>
                    <strong>{problemPlace(i18n, problem.place)}</strong>: {problem.message}
                  </List.Item>
                ))}
              </List>
            )}
            <Text size="sm" c="dimmed">
              <Trans>Fix these lines and choose the file again.</Trans>
            </Text>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
