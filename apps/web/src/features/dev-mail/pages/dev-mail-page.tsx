import type { devMailListSchema } from '@coffer/contracts/site';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Anchor,
  Badge,
  Card,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import type { z } from 'zod/mini';
import { NotFoundContent } from '../../../components/not-found-content.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { devMailQueryOptions } from '../api.ts';

type DevMail = z.infer<typeof devMailListSchema>['messages'][number];

const urlPattern = /(https?:\/\/[^\s<>"']+)/g;

/** The mail's plain text with its web addresses turned into links. */
function TextWithLinks({ text }: { text: string }) {
  // Each part is keyed by where it starts in the text, which never changes for one mail.
  const parts: ReactNode[] = [];
  let offset = 0;
  for (const [index, part] of text.split(urlPattern).entries()) {
    const isUrl = index % 2 === 1;
    parts.push(
      isUrl ? (
        <Anchor key={offset} href={part} underline="always" style={{ overflowWrap: 'anywhere' }}>
          {part}
        </Anchor>
      ) : (
        <Fragment key={offset}>{part}</Fragment>
      ),
    );
    offset += part.length;
  }
  return (
    <Text component="div" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {parts}
    </Text>
  );
}

/**
 * The sandbox's mailbox: every mail the server would have sent, readable in the browser, so
 * a tester can follow verification and reset links without a mail server.
 */
export function DevMailPage() {
  const { t } = useLingui();
  usePageTitle(t`Dev mailbox`);
  const mail = useQuery(devMailQueryOptions);
  if (mail.error instanceof ApiError && mail.error.status === 404) return <NotFoundContent />;

  return (
    <Container component="main" size="md" py={{ base: 24, sm: 48 }}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1}>
              <Trans>Dev mailbox</Trans>
            </Title>
            <Badge color="yellow" variant="light">
              <Trans>Sandbox only</Trans>
            </Badge>
          </Group>
          <Text c="dimmed">
            <Trans>Mail this sandbox sent, newest first. Nothing here left the server.</Trans>
          </Text>
        </Stack>
        {mail.isPending && <Loader aria-label={t`Loading mail`} />}
        {mail.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(mail.error)}
          </Alert>
        )}
        {mail.data?.messages.length === 0 && (
          <Text>
            <Trans>No mail has been sent yet.</Trans>
          </Text>
        )}
        {mail.data?.messages.map((message) => (
          <MailCard key={message.id} message={message} />
        ))}
      </Stack>
    </Container>
  );
}

/** One mail: its subject, to whom and when, and its text. */
function MailCard({ message }: { message: DevMail }) {
  const recipient = message.to;
  const sentAt = formatDateTime(message.createdAt);
  return (
    <Card withBorder padding="lg" component="article" aria-label={message.subject}>
      <Stack gap={2} mb="sm">
        <Title order={2} fz="lg">
          {message.subject}
        </Title>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          <Trans>
            To <bdi>{recipient}</bdi> · {sentAt}
          </Trans>
        </Text>
      </Stack>
      <TextWithLinks text={message.text} />
    </Card>
  );
}
