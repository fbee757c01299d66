import { Trans } from '@lingui/react/macro';
import { Alert, Button, Stack } from '@mantine/core';
import { errorMessage } from '../lib/api-client.ts';

/** A query that failed: what went wrong, in the server's words, and a way to ask again. */
export function LoadFailed({
  title,
  error,
  isRetrying,
  onRetry,
}: {
  title?: string;
  error: unknown;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" variant="light" role="alert" title={title}>
      <Stack gap="sm" align="flex-start">
        {errorMessage(error)}
        <Button size="xs" variant="default" loading={isRetrying} onClick={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      </Stack>
    </Alert>
  );
}
