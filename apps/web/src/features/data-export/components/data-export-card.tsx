import {
  type DataExport,
  dataExportLifetimeDays,
  dataExportUnlockBodySchema,
} from '@coffer/contracts/data-exports';
import { Alert, Anchor, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { LoadingState } from '../../../components/query-states.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useContractForm } from '../../../lib/forms.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { dataExportQueryOptions, useRequestDataExport, useUnlockDataExport } from '../api.ts';

const sizeFormat = new Intl.NumberFormat(undefined, {
  style: 'unit',
  unit: 'kilobyte',
  maximumFractionDigits: 0,
});

function sizeText(sizeBytes: string | null): string {
  if (sizeBytes === null) return '';
  // A size for people to read: kilobytes, rounded up so a tiny file is never "0 kB".
  return sizeFormat.format(Math.ceil(Number(sizeBytes) / 1000));
}

function RequestButton({ label, isSecondary = false }: { label: string; isSecondary?: boolean }) {
  const request = useRequestDataExport();
  return (
    <Group>
      <BusyButton
        isBusy={request.isPending}
        busyLabel="Asking..."
        type="button"
        variant={isSecondary ? 'default' : 'filled'}
        onClick={() =>
          request.mutate(undefined, { onError: (error) => showErrorToast(errorMessage(error)) })
        }
      >
        {label}
      </BusyButton>
    </Group>
  );
}

function Building({ dataExport }: { dataExport: DataExport }) {
  const percent = Math.round((dataExport.sectionsDone / dataExport.sectionsTotal) * 100);
  return (
    <Stack gap="xs">
      <Text>
        We are preparing your export, asked for on {formatDateTime(dataExport.requestedAt)}. We will
        email you when it is ready; you can leave this page.
      </Text>
      <Progress value={percent} aria-label={`Export ${percent}% prepared`} animated />
      <Text size="sm" c="dimmed" aria-live="polite">
        {dataExport.sectionsDone} of {dataExport.sectionsTotal} parts done
      </Text>
    </Stack>
  );
}

/** The password again, then the browser downloads the zip from the address it unlocked. */
function DownloadForm({ dataExport }: { dataExport: DataExport }) {
  const [downloadUrl, setDownloadUrl] = useState<string | null>(null);
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema: dataExportUnlockBodySchema,
    initialValues: { currentPassword: '' },
    mutation: useUnlockDataExport(dataExport.id),
    onSuccess: (unlocked) => {
      form.setValues({ currentPassword: '' });
      setDownloadUrl(unlocked.downloadUrl);
      // A navigation to an attachment downloads it and leaves the page where it is.
      window.location.assign(unlocked.downloadUrl);
    },
    onError: (failed) => failed.setFieldValue('currentPassword', ''),
    fieldsByCode: { wrong_password: 'currentPassword' },
  });
  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md" maw={420}>
        <FormAlert message={formError} />
        <PasswordField
          label="Your password"
          description="For your security, enter your password again to download your data."
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Group>
          <BusyButton
            isBusy={isPending}
            busyLabel="Checking..."
            leftSection={<Download size={18} aria-hidden />}
          >
            Download my data
          </BusyButton>
        </Group>
        {downloadUrl ? (
          <Text size="sm" role="status">
            Your download has started. If it did not,{' '}
            <Anchor href={downloadUrl}>download the zip here</Anchor> within five minutes.
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}

function Ready({ dataExport }: { dataExport: DataExport }) {
  return (
    <Stack gap="md">
      <Text>
        Your export is ready ({sizeText(dataExport.sizeBytes)}, a zip of JSON and CSV files and any
        identity documents you uploaded). You can download it until{' '}
        <strong>{dataExport.expiresAt ? formatDateTime(dataExport.expiresAt) : ''}</strong>.
      </Text>
      <DownloadForm dataExport={dataExport} />
      <RequestButton label="Prepare a new export" isSecondary />
    </Stack>
  );
}

function ExportState({ dataExport }: { dataExport: DataExport | null }) {
  if (dataExport === null) {
    return (
      <Stack gap="md">
        <Text>
          Get a copy of everything we hold about you: your profile, wallets and every transaction,
          statements, payees, scheduled and bulk payments, loans, cards (never their numbers),
          disputes, messages with support, notifications, sign-ins, the terms you accepted, and your
          identity documents. We prepare it in the background and email you when it is ready; you
          then have {dataExportLifetimeDays} days to download it.
        </Text>
        <RequestButton label="Export my data" />
      </Stack>
    );
  }
  switch (dataExport.status) {
    case 'building':
      return <Building dataExport={dataExport} />;
    case 'ready':
      return <Ready dataExport={dataExport} />;
    case 'expired':
      return (
        <Stack gap="md">
          <Text>
            Your last export expired
            {dataExport.expiresAt ? ` on ${formatDateTime(dataExport.expiresAt)}` : ''} and was
            deleted. You can ask for a new one.
          </Text>
          <RequestButton label="Export my data" />
        </Stack>
      );
    case 'failed':
      return (
        <Stack gap="md">
          <Alert color="red" title="We could not prepare your export">
            Something went wrong on our side. Please ask again; if it keeps failing, write to
            support.
          </Alert>
          <RequestButton label="Try again" />
        </Stack>
      );
  }
}

export function DataExportCard() {
  const overview = useQuery(dataExportQueryOptions);
  const headingId = 'data-export-heading';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="sm">
        Export my data
      </Title>
      {overview.isPending && <LoadingState label="Loading your exports" />}
      {overview.isError && (
        <LoadFailed
          title="Your exports did not load"
          error={overview.error}
          isRetrying={overview.isFetching}
          onRetry={() => overview.refetch()}
        />
      )}
      {overview.data && <ExportState dataExport={overview.data.latest} />}
    </Card>
  );
}
