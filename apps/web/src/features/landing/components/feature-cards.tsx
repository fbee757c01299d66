import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, Container, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import {
  CreditCard,
  HandCoins,
  IdCard,
  type LucideIcon,
  ReceiptText,
  Wallet,
  Zap,
} from 'lucide-react';
import { classes } from './landing-classes.ts';
import { SectionHeading } from './section-heading.tsx';

type Feature = { title: MessageDescriptor; text: MessageDescriptor; icon: LucideIcon };

// What the product does (PRODUCT.md sections 2 and 5), in a customer's words. No figures:
// limits and fees belong to the operator's configuration, not to this page.
const features: readonly Feature[] = [
  {
    title: msg`Wallet`,
    text: msg`One wallet in your country's currency, with your balance and every transaction in one place.`,
    icon: Wallet,
  },
  {
    title: msg`Instant transfers`,
    text: msg`Send money to another customer and it arrives at once. Withdraw to a bank, PayPal, CashApp or crypto once your identity is verified.`,
    icon: Zap,
  },
  {
    title: msg`Bill pay`,
    text: msg`Pay electricity, water, internet, phone and rent straight from your wallet.`,
    icon: ReceiptText,
  },
  {
    title: msg`Virtual cards`,
    text: msg`Create a virtual card for paying online, with a weekly spending limit you can see.`,
    icon: CreditCard,
  },
  {
    title: msg`Loans`,
    text: msg`Apply for a loan over 1 to 60 months. Staff review every application and you see the decision in your account.`,
    icon: HandCoins,
  },
  {
    title: msg`Identity verification`,
    text: msg`Verify your identity with a passport, driver's license or national ID to unlock withdrawals and loans. It is free.`,
    icon: IdCard,
  },
];

export function FeatureCards() {
  const { t, i18n } = useLingui();
  const headingId = 'products-heading';
  return (
    <Container
      component="section"
      id="products"
      size="lg"
      py={{ base: 48, sm: 72 }}
      className={classes.section}
      aria-labelledby={headingId}
    >
      <SectionHeading id={headingId} title={t`Banking Products`}>
        <Trans>Everything a day-to-day account needs, in one place.</Trans>
      </SectionHeading>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {features.map((feature) => (
          <Card key={feature.title.id} withBorder padding="lg" radius="md">
            <ThemeIcon size={42} radius="md" variant="light" mb="md" aria-hidden>
              <feature.icon size={22} />
            </ThemeIcon>
            <Title order={3} fz="lg" mb={6}>
              {i18n._(feature.title)}
            </Title>
            <Text c="dimmed">{i18n._(feature.text)}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </Container>
  );
}
