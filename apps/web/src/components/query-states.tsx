import { Trans } from '@lingui/react/macro';
import { Button, Center, EmptyState, Group, Loader } from '@mantine/core';
import { SearchX } from 'lucide-react';

/** A spinner while something loads, named by `label` (every Loader is a status: theme.ts). */
export function LoadingState({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Loader aria-label={label} />
    </Center>
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
        <Trans>Load more</Trans>
      </Button>
    </Group>
  );
}
