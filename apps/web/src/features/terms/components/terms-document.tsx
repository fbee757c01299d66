import type { Terms } from '@coffer/contracts/terms';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Stack, Text } from '@mantine/core';
import classes from './terms-document.module.css';

/**
 * One of the two documents, closed until the person opens it: `<details>`, so reading
 * costs no script. `isOpen`: shown open, where reading it is the page's purpose.
 */
function Document({ title, text, isOpen }: { title: string; text: string; isOpen: boolean }) {
  return (
    <details className={classes.document} open={isOpen}>
      <summary className={classes.summary}>{title}</summary>
      {/* A long text scrolls in its box: focusable, so a keyboard can scroll it too. */}
      <Box className={classes.text} tabIndex={0} role="region" aria-label={title}>
        {/* Plain text as the operator wrote it: blank lines part the paragraphs. */}
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {text}
        </Text>
      </Box>
    </details>
  );
}

/** The terms of service and the privacy notice of the version `terms` names. */
export function TermsDocument({ terms, isOpen = false }: { terms: Terms; isOpen?: boolean }) {
  const { t } = useLingui();
  const version = terms.version;
  return (
    <Stack gap="xs">
      <Document title={t`Terms of service`} text={terms.termsOfService} isOpen={isOpen} />
      <Document title={t`Privacy notice`} text={terms.privacyNotice} isOpen={isOpen} />
      <Text size="xs" c="dimmed">
        <Trans>
          Version <bdi>{version}</bdi>
        </Trans>
      </Text>
    </Stack>
  );
}
