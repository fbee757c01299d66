import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { usePageTitle } from '../lib/use-page-title.ts';
import { DeferredPublicFrame } from './deferred-public-frame.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * The router's error boundary: a page that throws while rendering lands here instead of
 * leaving a blank screen. React has already logged the error to the console.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const isNotFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <DeferredPublicFrame>
      {isNotFound ? <NotFoundPage /> : <UnexpectedErrorPage />}
    </DeferredPublicFrame>
  );
}

function UnexpectedErrorPage() {
  usePageTitle('Something went wrong');
  return (
    <Container component="main" size="md" py={{ base: 32, sm: 64 }}>
      <Stack gap="md" align="flex-start">
        <Title order={1}>Something went wrong</Title>
        <Text>
          This page failed to load because of a problem on our side. Reloading usually helps; if it
          does not, please try again later.
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button component={Link} to="/" variant="default">
            Go to the home page
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
