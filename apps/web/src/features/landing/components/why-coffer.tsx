import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Container, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { BookCheck, KeyRound, type LucideIcon, ReceiptText, ScrollText } from 'lucide-react';
import { isOperatorNamed } from '../../../lib/site.ts';
import { classes } from './landing-classes.ts';
import { SectionHeading } from './section-heading.tsx';

type Reason = { title: MessageDescriptor; text: MessageDescriptor; icon: LucideIcon };

// Each of these is a property the software enforces (PRODUCT.md section 0), not a claim.
const reasons: readonly Reason[] = [
  {
    title: msg`Every balance is backed by a double-entry ledger`,
    text: msg`A balance never changes by someone editing a number. Every movement is a balanced journal entry with a memo, a time and who caused it, for staff as much as for you.`,
    icon: BookCheck,
  },
  {
    title: msg`Two-factor security`,
    text: msg`Protect your login with an authenticator app, and keep one-time recovery codes for the day you lose your phone.`,
    icon: KeyRound,
  },
  {
    title: msg`Fees shown before you confirm`,
    text: msg`If something has a fee, you see it before you confirm, and it appears in your transaction list. Identity checks, disputes and support are free.`,
    icon: ReceiptText,
  },
  {
    title: msg`A log of every action on your account`,
    text: msg`Every staff action on your account, such as a freeze, a level change or a deposit, is logged with its reason, and you can see the ones that affect you.`,
    icon: ScrollText,
  },
];

/**
 * The software's own properties. Who runs it is said only when the operator named their
 * institution: PRODUCT.md section 0 allows no claim that nobody configured.
 */
export function WhyCoffer({ institutionName }: { institutionName: string }) {
  const { t, i18n } = useLingui();
  const headingId = 'why-heading';
  return (
    <Box className={classes.tinted}>
      <Container
        component="section"
        size="lg"
        py={{ base: 48, sm: 72 }}
        aria-labelledby={headingId}
      >
        <SectionHeading id={headingId} title={t`Why Coffer`}>
          {isOperatorNamed(institutionName) ? (
            <Trans>
              {institutionName} runs on Coffer, open-source banking software built so that what
              happens to your money can always be checked.
            </Trans>
          ) : (
            <Trans>
              Coffer is open-source banking software built so that what happens to your money can
              always be checked.
            </Trans>
          )}
        </SectionHeading>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
          {reasons.map((reason) => (
            <Group key={reason.title.id} align="flex-start" wrap="nowrap" gap="md">
              <ThemeIcon size={40} radius="md" aria-hidden>
                <reason.icon size={20} />
              </ThemeIcon>
              <Stack gap={4}>
                <Title order={3} fz="lg">
                  {i18n._(reason.title)}
                </Title>
                <Text c="dimmed">{i18n._(reason.text)}</Text>
              </Stack>
            </Group>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
