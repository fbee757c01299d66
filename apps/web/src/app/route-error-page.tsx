import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/use-page-title.ts';
import { DeferredPublicFrame } from './deferred-public-frame.tsx';

/**
 * The router's error boundary: a page that throws while rendering, or whose code fails to
 * load, lands here instead of leaving a blank screen. React has already logged a render
 * error to the console. (An unknown address is no error: the route table's `*` routes
 * show the 404 page.)
 */
export function RouteErrorPage() {
  return (
    <DeferredPublicFrame>
      <UnexpectedErrorPage />
    </DeferredPublicFrame>
  );
}

function UnexpectedErrorPage() {
  const { t } = useLingui();
  usePageTitle(t`Something went wrong`);
  return (
    <Container component="main" size="md" py={{ base: 32, sm: 64 }}>
      <Stack gap="md" align="flex-start">
        <Title order={1}>
          <Trans>Something went wrong</Trans>
        </Title>
        <Text>
          <Trans>
            This page failed to load because of a problem on our side. Reloading usually helps; if
            it does not, please try again later.
          </Trans>
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>
            <Trans>Reload the page</Trans>
          </Button>
          <Button component={Link} to="/" variant="default">
            <Trans>Go to the home page</Trans>
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
