import { Trans } from '@lingui/react/macro';
import { Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { usePageTitle } from '../lib/use-page-title.ts';
import { QueueHeading, QueueItems, type QueueProps } from './queue-page.tsx';

// Apart from queue-page.tsx, which every queue loads: only the loans queue has sections.

/** A queue of several lists of work (the loans queue): its title, then `children`. */
export function SectionedQueuePage({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <Stack gap="xl">
      <QueueHeading title={title} description={description} />
      {children}
    </Stack>
  );
}

/** One list of a sectioned queue, a region named by its heading. */
export function QueueSection<Item>({
  title,
  description,
  ...items
}: { title: string; description: string } & QueueProps<Item>) {
  const headingId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Stack gap={2}>
        <Title order={2} id={headingId}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </Stack>
      {items.queue.data?.items.length === 0 ? (
        // One line rather than the empty-state picture: the lists below stay in view.
        <Text size="sm" c="dimmed">
          <Trans>Nothing waiting.</Trans> {items.emptyDescription}
        </Text>
      ) : (
        <QueueItems {...items} />
      )}
    </Stack>
  );
}
