import { Box, Container, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { classes } from './landing-classes.ts';
import { SectionHeading } from './section-heading.tsx';

function MockField({
  label,
  value,
  hasCursor,
}: {
  label: string;
  value?: string;
  hasCursor?: boolean;
}) {
  return (
    <Stack gap={4}>
      <Text size="xs" fw={600}>
        {label}
      </Text>
      <Box className={classes.tourField} px="sm" py={6}>
        <Text size="sm" lh={1.4}>
          {value}
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

type Step = { value: string; tab: string; title: string; text: string; screen: ReactNode };

const steps: readonly Step[] = [
  {
    value: 'sign-up',
    tab: '1. Sign up',
    title: 'Open an account in a minute',
    text: 'Choose a username, give your email and phone, pick a strong password and your country. Your wallet opens in that country’s currency.',
    screen: (
      <Stack gap="sm">
        <Title order={4} fz="md">
          Create account
        </Title>
        <MockField label="Username" value="alex" hasCursor />
        <MockField label="Email" />
        <MockField label="Country" value="United States (USD)" />
        <MockButton>Register</MockButton>
      </Stack>
    ),
  },
  {
    value: 'secure',
    tab: '2. Secure it',
    title: 'Turn on two-factor security',
    text: 'Confirm your email, then scan a QR code with your authenticator app. You get ten recovery codes to keep somewhere safe.',
    screen: (
      <Stack gap="sm" align="flex-start">
        <Title order={4} fz="md">
          Two-factor authentication
        </Title>
        <QrIllustration />
        <MockField label="Code from your app" hasCursor />
        <MockButton>Turn on</MockButton>
      </Stack>
    ),
  },
  {
    value: 'add-money',
    tab: '3. Add money',
    title: 'Add money to your wallet',
    text: 'Follow the deposit instructions your institution gives you. The money appears in your wallet as a ledger entry you can look up.',
    screen: (
      <Stack gap="sm">
        <Title order={4} fz="md">
          Add money
        </Title>
        <Box className={classes.mockBar} h={10} w="90%" />
        <Box className={classes.mockBar} h={10} w="70%" />
        <Box className={classes.mockBar} h={10} w="80%" />
        <MockField label="Amount" hasCursor />
        <MockButton>Continue</MockButton>
      </Stack>
    ),
  },
  {
    value: 'send',
    tab: '4. Send & pay',
    title: 'Send money and pay bills',
    text: 'Send to another customer, pay a bill or create a virtual card. Any fee is shown before you confirm.',
    screen: (
      <Stack gap="sm">
        <Title order={4} fz="md">
          Send money
        </Title>
        <MockField label="To" value="sam@example.com" />
        <MockField label="Amount" hasCursor />
        <Group justify="space-between">
          <Text size="sm">Fee</Text>
          <Text size="sm" fw={600}>
            Shown before you confirm
          </Text>
        </Group>
        <MockButton>Confirm</MockButton>
      </Stack>
    ),
  },
];

/** How the product works, as an illustration: a browser window whose screen follows the step. */
export function ProductTour() {
  const headingId = 'tour-heading';
  return (
    <Box className={classes.tinted}>
      <Container
        component="section"
        size="lg"
        py={{ base: 48, sm: 72 }}
        aria-labelledby={headingId}
      >
        <SectionHeading id={headingId} title="Take the tour">
          From sign-up to your first payment, in four steps.
        </SectionHeading>
        {/* Every step is in the page, hidden but the chosen one, so the server-rendered
            landing page can switch steps without React (features/landing/static-page.ts). */}
        <Tabs id="tour" defaultValue="sign-up" variant="pills" keepMountedMode="display-none">
          <Tabs.List mb="lg">
            {steps.map((step) => (
              <Tabs.Tab key={step.value} value={step.value}>
                {step.tab}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {steps.map((step) => (
            <Tabs.Panel key={step.value} value={step.value}>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing={40} style={{ alignItems: 'center' }}>
                <Stack gap="sm">
                  <Title order={3} fz="xl">
                    {step.title}
                  </Title>
                  <Text fz="lg" c="dimmed">
                    {step.text}
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
