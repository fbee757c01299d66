import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Container, Divider, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { isOperatorNamed, useInstitutionName, useSite } from '../lib/site.ts';

const pageLinks = [
  { label: msg`About us`, to: '/about' },
  { label: msg`Create account`, to: '/signup' },
  { label: msg`Login`, to: '/signin' },
] as const;

/**
 * Only web, mail and same-site links from the configuration become links, so a mistyped or
 * hostile `javascript:` URL in the file cannot run in a visitor's browser.
 */
function isSafeLink(url: string): boolean {
  if (url.startsWith('/') && !url.startsWith('//')) return true;
  return /^(https?:|mailto:)/i.test(url);
}

function FooterLink({ label, url }: { label: string; url: string }) {
  if (url.startsWith('/')) {
    return (
      <Anchor component={Link} to={url} size="sm" c="inherit">
        {label}
      </Anchor>
    );
  }
  return (
    <Anchor href={url} size="sm" c="inherit" target="_blank" rel="noopener noreferrer">
      {label}
    </Anchor>
  );
}

/**
 * The bottom of every public page. The contact address and the quick links come from the
 * operator's configuration; each block is left out when it is not configured.
 */
export function PublicFooter() {
  const site = useSite();
  const { t, i18n } = useLingui();
  const institutionName = useInstitutionName();
  const quickLinks = (site?.quickLinks ?? []).filter((link) => isSafeLink(link.url));
  return (
    <Container component="footer" size="lg" py="xl" mt="xl" w="100%">
      <Divider mb="xl" />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xl">
        <Stack gap={6}>
          <Text fw={700}>{institutionName}</Text>
          <Text size="sm" c="dimmed">
            {isOperatorNamed(institutionName)
              ? t`Runs on Coffer, open-source banking software.`
              : t`Open-source banking software.`}
          </Text>
        </Stack>
        <Stack gap={6} component="nav" aria-label={t`Pages`}>
          <Title order={2} fz="sm">
            <Trans>Pages</Trans>
          </Title>
          {pageLinks.map((link) => (
            <FooterLink key={link.to} label={i18n._(link.label)} url={link.to} />
          ))}
        </Stack>
        {quickLinks.length > 0 && (
          <Stack gap={6} component="nav" aria-label={t`Quick links`}>
            <Title order={2} fz="sm">
              <Trans>Quick links</Trans>
            </Title>
            {quickLinks.map((link) => (
              <FooterLink key={`${link.label} ${link.url}`} label={link.label} url={link.url} />
            ))}
          </Stack>
        )}
        {site?.contactEmail && (
          <Stack gap={6}>
            <Title order={2} fz="sm">
              <Trans>Contact</Trans>
            </Title>
            <Anchor
              href={`mailto:${site.contactEmail}`}
              size="sm"
              style={{ overflowWrap: 'anywhere' }}
            >
              {site.contactEmail}
            </Anchor>
          </Stack>
        )}
      </SimpleGrid>
    </Container>
  );
}
