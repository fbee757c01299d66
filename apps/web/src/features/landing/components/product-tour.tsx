import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Box, Container, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { classes } from './landing-classes.ts';
import { SectionHeading } from './section-heading.tsx';

function MockField({
  label,
  value,
  hasCursor,
}: {
  label: MessageDescriptor;
  value?: MessageDescriptor | string;
  hasCursor?: boolean;
}) {
  const { i18n } = useLingui();
  return (
    <Stack gap={4}>
      <Text size="xs" fw={600}>
        {i18n._(label)}
      </Text>
      <Box className={classes.tourField} px="sm" py={6}>
        <Text size="sm" lh={1.4}>
          {typeof value === 'string' ? value : value && i18n._(value)}
          {hasCursor && <span className={classes.tourCursor} />}
        </Text>
      </Box>
    </Stack>
  );
}

function MockButton({ children }: { children: ReactNode }) {
  return (
    <Box className={classes.mockButton} py={10}>
      {children}
    </Box>
  );
}

// A fixed pattern that reads as "a QR code" at a glance; it encodes nothing.
const qrPattern = [
  '1110101110111',
  '1010010010101',
  '1110110110111',
  '0001011010000',
  '1011100111011',
  '0100111001010',
  '1101010101101',
  '0010110110100',
  '1110011100111',
  '1010101011101',
  '1110110010111',
];

function QrIllustration() {
  const cellPx = 8;
  return (
    <svg
      width={qrPattern[0]?.length ? qrPattern[0].length * cellPx : 0}
      height={qrPattern.length * cellPx}
      role="presentation"
    >
      {qrPattern.flatMap((row, y) =>
        [...row].map((cell, x) =>
          cell === '1' ? (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed grid; positions are the identity.
              key={`${x}-${y}`}
              x={x * cellPx}
              y={y * cellPx}
              width={cellPx}
              height={cellPx}
              fill="currentColor"
            />
          ) : null,
        ),
      )}
    </svg>
  );
}

type Step = {
  value: string;
  tab: MessageDescriptor;
  title: MessageDescriptor;
  text: MessageDescriptor;
  screen: ReactNode;
};

const steps: readonly Step[] = [
  {
    value: 'sign-up',
    tab: msg`1. Sign up`,
    title: msg`Open an account in a minute`,
    text: msg`Choose a username, give your email and phone, pick a strong password and your country. Your wallet opens in that country’s currency.`,
    screen: (
      <Stack gap="sm">
        <Title order={4} fz="md">
          <Trans>Create account</Trans>
        </Title>
        <MockField label={msg`Username`} value="alex" hasCursor />
        <MockField label={msg`Email`} />
        <MockField label={msg`Country`} value={msg`United States (USD)`} />
        <MockButton>
          <Trans>Register</Trans>
        </MockButton>
      </Stack>
    ),
  },
  {
    value: 'secure',
    tab: msg`2. Secure it`,
    title: msg`Turn on two-factor security`,
    text: msg`Confirm your email, then scan a QR code with your authenticator app. You get ten recovery codes to keep somewhere safe.`,
    screen: (
      <Stack gap="sm" align="flex-start">
        <Title order={4} fz="md">
          <Trans>Two-factor authentication</Trans>
        </Title>
        <QrIllustration />
        <MockField label={msg`Code from your app`} hasCursor />
        <MockButton>
          <Trans>Turn on</Trans>
        </MockButton>
      </Stack>
    ),
  },
  {
    value: 'add-money',
    tab: msg`3. Add money`,
    title: msg`Add money to your wallet`,
    text: msg`Follow the deposit instructions your institution gives you. The money appears in your wallet as a ledger entry you can look up.`,
    screen: (
      <Stack gap="sm">
        <Title order={4} fz="md">
          <Trans>Add money</Trans>
        </Title>
        <Box className={classes.mockBar} h={10} w="90%" />
        <Box className={classes.mockBar} h={10} w="70%" />
        <Box className={classes.mockBar} h={10} w="80%" />
        <MockField label={msg`Amount`} hasCursor />
        <MockButton>
          <Trans>Continue</Trans>
        </MockButton>
      </Stack>
    ),
  },
  {
    value: 'send',
    tab: msg`4. Send & pay`,
    title: msg`Send money and pay bills`,
    text: msg`Send to another customer, pay a bill or create a virtual card. Any fee is shown before you confirm.`,
    screen: (
      <Stack gap="sm">
        <Title order={4} fz="md">
          <Trans>Send money</Trans>
        </Title>
        <MockField label={msg`To`} value="sam@example.com" />
        <MockField label={msg`Amount`} hasCursor />
        <Group justify="space-between">
          <Text size="sm">
            <Trans>Fee</Trans>
          </Text>
          <Text size="sm" fw={600}>
            <Trans>Shown before you confirm</Trans>
          </Text>
        </Group>
        <MockButton>
          <Trans>Confirm</Trans>
        </MockButton>
      </Stack>
    ),
  },
];

/** How the product works, as an illustration: a browser window whose screen follows the step. */
export function ProductTour() {
  const { t, i18n } = useLingui();
  const headingId = 'tour-heading';
  return (
    <Box className={classes.tinted}>
      <Container
        component="section"
        size="lg"
        py={{ base: 48, sm: 72 }}
        aria-labelledby={headingId}
      >
        <SectionHeading id={headingId} title={t`Take the tour`}>
          <Trans>From sign-up to your first payment, in four steps.</Trans>
        </SectionHeading>
        {/* Every step is in the page, hidden but the chosen one, so the server-rendered
            landing page can switch steps without React (features/landing/static-page.ts). */}
        <Tabs id="tour" defaultValue="sign-up" variant="pills" keepMountedMode="display-none">
          <Tabs.List mb="lg">
            {steps.map((step) => (
              <Tabs.Tab key={step.value} value={step.value}>
                {i18n._(step.tab)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {steps.map((step) => (
            <Tabs.Panel key={step.value} value={step.value}>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40} style={{ alignItems: 'center' }}>
                <Stack gap="sm">
                  <Title order={3} fz="xl">
                    {i18n._(step.title)}
                  </Title>
                  <Text fz="lg" c="dimmed">
                    {i18n._(step.text)}
                  </Text>
                </Stack>
                <Box className={classes.tourWindow} aria-hidden>
                  <Box className={classes.tourBar}>
                    <span className={classes.tourDot} />
                    <span className={classes.tourDot} />
                    <span className={classes.tourDot} />
                  </Box>
                  <Box className={classes.tourScreen}>{step.screen}</Box>
                </Box>
              </SimpleGrid>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Container>
    </Box>
  );
}
