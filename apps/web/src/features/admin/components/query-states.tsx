import { Alert, Button, Center, EmptyState, Group, Loader, Stack } from '@mantine/core';
import { SearchX } from 'lucide-react';
import { errorMessage } from '../../../lib/api-client.ts';

export function LoadingState({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Loader aria-label={label} />
    </Center>
  );
}

/** A query that failed: the server's message and a way to ask again. */
export function ErrorState({
  title,
  error,
  isRetrying,
  onRetry,
}: {
  title: string;
  error: unknown;
  isRetrying: boolean;
  onRetry: () => void;
}) {
  return (
    <Alert color="red" variant="light" role="alert" title={title}>
      <Stack gap="sm" align="flex-start">
        {errorMessage(error)}
        <Button size="xs" variant="default" loading={isRetrying} onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    </Alert>
  );
}

export function NothingFound({ title, description }: { title: string; description?: string }) {
  return (
    <EmptyState
      py="xl"
      size="sm"
      icon={<SearchX size={28} aria-hidden />}
      title={title}
      description={description}
    />
  );
}

/** The end of a paginated list: more to load, or nothing. */
export function LoadMore({
  hasNextPage,
  isFetchingNextPage,
  onLoadMore,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  onLoadMore: () => void;
}) {
  if (!hasNextPage) return null;
  return (
    <Group justify="center" mt="md">
      <Button variant="default" loading={isFetchingNextPage} onClick={onLoadMore}>
        Load more
      </Button>
    </Group>
  );
}
