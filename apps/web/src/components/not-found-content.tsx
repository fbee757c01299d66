import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { homeLinkFor } from '../lib/return-to.ts';
import { useMe } from '../lib/session.ts';
import { usePageTitle } from '../lib/use-page-title.ts';

/** Where the 404 page sends someone: their own start page once signed in, else home. */
function useWayBack(): { to: string; label: MessageDescriptor } {
  const me = useMe();
  return me ? homeLinkFor(me.role) : { to: '/', label: msg`Go to the home page` };
}

/**
 * The 404 page: the address matches no page (or no page this user may see). Inside the
 * signed-in shell the shell already provides the page's <main>.
 */
export function NotFoundContent({ isInsideShell = false }: { isInsideShell?: boolean }) {
  const { t, i18n } = useLingui();
  usePageTitle(t`Page not found`);
  const wayBack = useWayBack();
  return (
    <Container
      component={isInsideShell ? 'div' : 'main'}
      size="md"
      px={isInsideShell ? 0 : undefined}
      py={isInsideShell ? 'md' : { base: 32, sm: 64 }}
      ml={isInsideShell ? 0 : undefined}
    >
      <Stack gap="md" align="flex-start">
        <Text c="dimmed" fw={600} ff="monospace">
          404
        </Text>
        <Title order={1}>
          <Trans>Page not found</Trans>
        </Title>
        <Text>
          <Trans>There is no page at this address. Check the link, or start again from home.</Trans>
        </Text>
        <Button component={Link} to={wayBack.to}>
          {i18n._(wayBack.label)}
        </Button>
      </Stack>
    </Container>
  );
}
