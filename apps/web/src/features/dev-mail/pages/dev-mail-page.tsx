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
import { NotFoundContent } from '../../../components/not-found-content.tsx';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { devMailQueryOptions } from '../api.ts';

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
  usePageTitle('Dev mailbox');
  const mail = useQuery(devMailQueryOptions);
  if (mail.error instanceof ApiError && mail.error.status === 404) return <NotFoundContent />;

  return (
    <Container component="main" size="md" py={{ base: 24, sm: 48 }}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1}>Dev mailbox</Title>
            <Badge color="yellow" variant="light">
              Sandbox only
            </Badge>
          </Group>
          <Text c="dimmed">
            Mail this sandbox sent, newest first. Nothing here left the server.
          </Text>
        </Stack>
        {mail.isPending && <Loader aria-label="Loading mail" />}
        {mail.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(mail.error)}
          </Alert>
        )}
        {mail.data?.messages.length === 0 && <Text>No mail has been sent yet.</Text>}
        {mail.data?.messages.map((message) => (
          <Card
            key={message.id}
            withBorder
            padding="lg"
            component="article"
            aria-label={message.subject}
          >
            <Stack gap={2} mb="sm">
              <Title order={2} fz="lg">
                {message.subject}
              </Title>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                To {message.to} · {formatDateTime(message.createdAt)}
              </Text>
            </Stack>
            <TextWithLinks text={message.text} />
          </Card>
        ))}
      </Stack>
    </Container>
  );
}
