import { Trans } from '@lingui/react/macro';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { LanguageSwitcher } from '../../../components/language-switcher.tsx';

/** The person's language (docs/decisions/054): the app's, and their emails' and statements'. */
export function LanguageCard() {
  const headingId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          <Trans>Language</Trans>
        </Title>
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" maw={480}>
            <Trans>
              Coffer, your emails and your statements are written in this language, with dates and
              amounts the way it writes them.
            </Trans>
          </Text>
          <LanguageSwitcher />
        </Group>
      </Stack>
    </Card>
  );
}
