import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Container, Group, List, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { Check, Wifi } from 'lucide-react';
import { classes } from './landing-classes.ts';
import { SectionHeading } from './section-heading.tsx';

/** A card drawn in CSS: masked digits and no real card data, purely an illustration. */
function CardIllustration({ institutionName }: { institutionName: string }) {
  return (
    <Box className={classes.card} aria-hidden>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={700} c="white" truncate>
          {institutionName}
        </Text>
        <Text size="xs" fw={700} c="white" style={{ letterSpacing: '0.15em' }}>
          <Trans>VIRTUAL</Trans>
        </Text>
      </Group>
      <Group justify="space-between">
        <Box className={classes.chip} />
        <Wifi size={22} style={{ transform: 'rotate(90deg)' }} />
      </Group>
      <Text className={classes.cardDigits} c="white">
        •••• •••• •••• ••••
      </Text>
    </Box>
  );
}

export function VirtualCardsSection({ institutionName }: { institutionName: string }) {
  const { t } = useLingui();
  const headingId = 'cards-heading';
  const points = [
    t`Create a card from your wallet in a few clicks and use it for online payments.`,
    t`A weekly spending limit keeps a lost card number from emptying your wallet.`,
    t`If your institution charges a fee for a card, you see it before you confirm.`,
  ];
  return (
    <Container component="section" size="lg" py={{ base: 48, sm: 72 }} aria-labelledby={headingId}>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
        <Stack gap={0}>
          <SectionHeading id={headingId} title={t`Virtual cards`}>
            <Trans>A card for the internet, paid from your wallet.</Trans>
          </SectionHeading>
          <List
            spacing="sm"
            icon={
              <ThemeIcon size={22} radius="xl" variant="light" aria-hidden>
                <Check size={14} />
              </ThemeIcon>
            }
          >
            {points.map((point) => (
              <List.Item key={point}>{point}</List.Item>
            ))}
          </List>
        </Stack>
        <CardIllustration institutionName={institutionName} />
      </SimpleGrid>
    </Container>
  );
}
