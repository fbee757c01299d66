import type { Site } from '@coffer/contracts/site';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Avatar,
  Box,
  Button,
  Card,
  Center,
  Container,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  Eye,
  Gem,
  HeartHandshake,
  Lightbulb,
  type LucideIcon,
  Mail,
  ShieldCheck,
  Target,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { fallbackInstitutionName, siteQueryOptions } from '../../../lib/site.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';

type CoreValue = { title: MessageDescriptor; text: MessageDescriptor; icon: LucideIcon };

const coreValues: readonly CoreValue[] = [
  {
    title: msg`Integrity First`,
    text: msg`Every balance is kept on a double-entry ledger, and every staff action on your account is logged with its reason.`,
    icon: ShieldCheck,
  },
  {
    title: msg`Innovation Driven`,
    text: msg`We run on open-source software that anyone can read, check and improve.`,
    icon: Lightbulb,
  },
  {
    title: msg`Customer Centric`,
    text: msg`Fees are shown before you confirm. Identity checks, disputes and support are free.`,
    icon: HeartHandshake,
  },
  {
    title: msg`Excellence Always`,
    text: msg`Two-factor security, clear messages and an account you can understand, on any screen.`,
    icon: Gem,
  },
];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Title order={2} id={id} mb="md" fz={{ base: 22, sm: 26 }}>
        {title}
      </Title>
      {children}
    </Box>
  );
}

function Paragraphs({ text }: { text: string }) {
  return (
    <Stack gap="sm">
      {text
        .split(/\n\s*\n/)
        .filter((paragraph) => paragraph.trim() !== '')
        .map((paragraph) => (
          <Text key={paragraph} fz="lg" dir="auto">
            {paragraph}
          </Text>
        ))}
    </Stack>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

function MissionAndVision({ site }: { site: Site }) {
  const { t } = useLingui();
  const statements = [
    { key: 'mission', title: t`Our mission`, text: site.mission, icon: Target },
    { key: 'vision', title: t`Our vision`, text: site.vision, icon: Eye },
  ].filter(
    (statement): statement is { key: string; title: string; text: string; icon: LucideIcon } =>
      Boolean(statement.text),
  );
  if (statements.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: statements.length }} spacing="lg">
      {statements.map((statement) => (
        <Card key={statement.key} withBorder padding="lg" component="section">
          <Group gap="sm" mb="sm" wrap="nowrap">
            <ThemeIcon size={36} radius="md" variant="light" aria-hidden>
              <statement.icon size={20} />
            </ThemeIcon>
            <Title order={2} fz="xl">
              {statement.title}
            </Title>
          </Group>
          <Paragraphs text={statement.text} />
        </Card>
      ))}
    </SimpleGrid>
  );
}

/**
 * About the operator. Mission, vision, story, year, leadership and the careers address come
 * from their configuration; a part that is not configured is left out, never made up.
 */
export function AboutPage() {
  const { t, i18n } = useLingui();
  usePageTitle(t`About us`);
  const siteQuery = useQuery(siteQueryOptions);
  if (siteQuery.isPending) {
    return (
      <Center component="main" py={96}>
        <Loader aria-label={t`Loading`} />
      </Center>
    );
  }
  const site: Site = siteQuery.data ?? { institutionName: fallbackInstitutionName };
  const hasStory = Boolean(site.story) || site.foundingYear !== undefined;
  const leadership = site.leadership ?? [];
  const institutionName = site.institutionName;
  const foundingYear = site.foundingYear;

  return (
    <Container component="main" size="lg" py={{ base: 32, sm: 56 }}>
      <Stack gap={56}>
        <Stack gap="sm" maw={720}>
          <Title order={1} fz={{ base: 30, sm: 40 }}>
            <Trans>About {institutionName}</Trans>
          </Title>
          {site.tagline && (
            <Text fz="lg" c="dimmed" dir="auto">
              {site.tagline}
            </Text>
          )}
        </Stack>

        <MissionAndVision site={site} />

        {hasStory && (
          <Section id="story-heading" title={t`Our story`}>
            <Stack gap="sm" maw={760}>
              {foundingYear !== undefined && (
                <Text fw={600}>
                  <Trans>Founded in {foundingYear}</Trans>
                </Text>
              )}
              {site.story && <Paragraphs text={site.story} />}
            </Stack>
          </Section>
        )}

        <Section id="values-heading" title={t`Our core values`}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="lg">
            {coreValues.map((value) => (
              <Card key={value.title.id} withBorder padding="lg">
                <ThemeIcon size={40} radius="md" mb="md" aria-hidden>
                  <value.icon size={20} />
                </ThemeIcon>
                <Title order={3} fz="lg" mb={6}>
                  {i18n._(value.title)}
                </Title>
                <Text c="dimmed">{i18n._(value.text)}</Text>
              </Card>
            ))}
          </SimpleGrid>
        </Section>

        {leadership.length > 0 && (
          <Section id="leadership-heading" title={t`Leadership`}>
            <SimpleGrid
              cols={{ base: 1, xs: 2, md: 3 }}
              spacing="lg"
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
            >
              {leadership.map((person) => (
                <Card key={`${person.name} ${person.role}`} withBorder padding="md" component="li">
                  <Group wrap="nowrap">
                    <Avatar color="coffer" radius="xl" aria-hidden>
                      {initials(person.name)}
                    </Avatar>
                    <Stack gap={0} miw={0}>
                      <Text fw={600}>{person.name}</Text>
                      <Text size="sm" c="dimmed">
                        {person.role}
                      </Text>
                    </Stack>
                  </Group>
                </Card>
              ))}
            </SimpleGrid>
          </Section>
        )}

        {site.careersEmail && (
          <Section id="careers-heading" title={t`Work with us`}>
            <Stack gap="md" align="flex-start">
              <Text fz="lg">
                <Trans>Interested in joining {institutionName}? Write to us.</Trans>
              </Text>
              <Button
                component="a"
                href={`mailto:${site.careersEmail}`}
                leftSection={<Mail size={18} aria-hidden />}
              >
                <Trans>Explore Careers</Trans>
              </Button>
            </Stack>
          </Section>
        )}
      </Stack>
    </Container>
  );
}
