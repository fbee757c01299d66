import {
  type DataExport,
  dataExportLifetimeDays,
  dataExportUnlockBodySchema,
} from '@coffer/contracts/data-exports';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
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
import { intlLocale } from '../../../lib/i18n.ts';
import { showErrorToast } from '../../../lib/toasts.ts';
import { dataExportQueryOptions, useRequestDataExport, useUnlockDataExport } from '../api.ts';

function sizeText(sizeBytes: string | null): string {
  if (sizeBytes === null) return '';
  // A size for people to read, in the page's language: kilobytes, rounded up so a tiny file
  // is never "0 kB".
  const sizeFormat = new Intl.NumberFormat(intlLocale(), {
    style: 'unit',
    unit: 'kilobyte',
    maximumFractionDigits: 0,
  });
  return sizeFormat.format(Math.ceil(Number(sizeBytes) / 1000));
}

function RequestButton({ label, isSecondary = false }: { label: string; isSecondary?: boolean }) {
  const { t } = useLingui();
  const request = useRequestDataExport();
  return (
    <Group>
      <BusyButton
        isBusy={request.isPending}
        busyLabel={t`Asking...`}
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
  const { t } = useLingui();
  const percent = Math.round((dataExport.sectionsDone / dataExport.sectionsTotal) * 100);
  const requestedAt = formatDateTime(dataExport.requestedAt);
  const done = dataExport.sectionsDone;
  const total = dataExport.sectionsTotal;
  return (
    <Stack gap="xs">
      <Text>
        <Trans>
          We are preparing your export, asked for on {requestedAt}. We will email you when it is
          ready; you can leave this page.
        </Trans>
      </Text>
      <Progress value={percent} aria-label={t`Export ${percent}% prepared`} animated />
      <Text size="sm" c="dimmed" aria-live="polite">
        <Plural value={total} one={`${done} of # part done`} other={`${done} of # parts done`} />
      </Text>
    </Stack>
  );
}

/** The password again, then the browser downloads the zip from the address it unlocked. */
function DownloadForm({ dataExport }: { dataExport: DataExport }) {
  const { t } = useLingui();
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
          label={t`Your password`}
          description={t`For your security, enter your password again to download your data.`}
          autoComplete="current-password"
          {...form.getInputProps('currentPassword')}
        />
        <Group>
          <BusyButton
            isBusy={isPending}
            busyLabel={t`Checking...`}
            leftSection={<Download size={18} aria-hidden />}
          >
            <Trans>Download my data</Trans>
          </BusyButton>
        </Group>
        {downloadUrl ? (
          <Text size="sm" role="status">
            <Trans>
              Your download has started. If it did not,{' '}
              <Anchor href={downloadUrl}>download the zip here</Anchor> within five minutes.
            </Trans>
          </Text>
        ) : null}
      </Stack>
    </form>
  );
}

function Ready({ dataExport }: { dataExport: DataExport }) {
  const { t } = useLingui();
  const size = sizeText(dataExport.sizeBytes);
  const expiresAt = dataExport.expiresAt ? formatDateTime(dataExport.expiresAt) : '';
  return (
    <Stack gap="md">
      <Text>
        <Trans>
          Your export is ready (<bdi>{size}</bdi>, a zip of JSON and CSV files and any identity
          documents you uploaded). You can download it until <strong>{expiresAt}</strong>.
        </Trans>
      </Text>
      <DownloadForm dataExport={dataExport} />
      <RequestButton label={t`Prepare a new export`} isSecondary />
    </Stack>
  );
}

function ExportState({ dataExport }: { dataExport: DataExport | null }) {
  const { t } = useLingui();
  if (dataExport === null) {
    return (
      <Stack gap="md">
        <Text>
          <Trans>
            Get a copy of everything we hold about you: your profile, wallets and every transaction,
            statements, payees, scheduled and bulk payments, loans, cards (never their numbers),
            disputes, messages with support, notifications, sign-ins, the terms you accepted, and
            your identity documents. We prepare it in the background and email you when it is ready;
            you then have <Plural value={dataExportLifetimeDays} one="# day" other="# days" /> to
            download it.
          </Trans>
        </Text>
        <RequestButton label={t`Export my data`} />
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
            <ExpiredText expiresAt={dataExport.expiresAt} />
          </Text>
          <RequestButton label={t`Export my data`} />
        </Stack>
      );
    case 'failed':
      return (
        <Stack gap="md">
          <Alert color="red" title={t`We could not prepare your export`}>
            <Trans>
              Something went wrong on our side. Please ask again; if it keeps failing, write to
              support.
            </Trans>
          </Alert>
          <RequestButton label={t`Try again`} />
        </Stack>
      );
  }
}

function ExpiredText({ expiresAt }: { expiresAt: string | null }) {
  if (!expiresAt) {
    return <Trans>Your last export expired and was deleted. You can ask for a new one.</Trans>;
  }
  const expiredOn = formatDateTime(expiresAt);
  return (
    <Trans>
      Your last export expired on {expiredOn} and was deleted. You can ask for a new one.
    </Trans>
  );
}

export function DataExportCard() {
  const { t } = useLingui();
  const overview = useQuery(dataExportQueryOptions);
  const headingId = 'data-export-heading';
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="sm">
        <Trans>Export my data</Trans>
      </Title>
      {overview.isPending && <LoadingState label={t`Loading your exports`} />}
      {overview.isError && (
        <LoadFailed
          title={t`Your exports did not load`}
          error={overview.error}
          isRetrying={overview.isFetching}
          onRetry={() => overview.refetch()}
        />
      )}
      {overview.data && <ExportState dataExport={overview.data.latest} />}
    </Card>
  );
}
