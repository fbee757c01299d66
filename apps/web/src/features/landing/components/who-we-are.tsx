import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Container, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SectionHeading } from './section-heading.tsx';

/** The operator's own words about themselves; the page leaves this out when there are none. */
export function WhoWeAre({ text, foundingYear }: { text: string; foundingYear?: number }) {
  const { t } = useLingui();
  const headingId = 'who-heading';
  const paragraphs = text.split(/\n\s*\n/).filter((paragraph) => paragraph.trim() !== '');
  return (
    <Container component="section" size="lg" py={{ base: 48, sm: 72 }} aria-labelledby={headingId}>
      <SectionHeading id={headingId} title={t`Who we are`} />
      <Stack gap="md" maw={720}>
        {foundingYear !== undefined && (
          <Text fw={600}>
            <Trans>Founded in {foundingYear}</Trans>
          </Text>
        )}
        {paragraphs.map((paragraph) => (
          <Text key={paragraph} fz="lg" dir="auto">
            {paragraph}
          </Text>
        ))}
        <Anchor component={Link} to="/about" fw={600}>
          <Trans>More about us</Trans>
        </Anchor>
      </Stack>
    </Container>
  );
}
