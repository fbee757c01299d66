import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/use-page-title.ts';

// The full landing page (PRODUCT.md section 2) needs operator configuration; until then it
// says only what is true of every installation and invents nothing.
export function LandingPage() {
  usePageTitle(null);
  return (
    <Container component="main" size="md" py={{ base: 32, sm: 64 }}>
      <Stack gap="lg" align="flex-start" maw={640}>
        <Title order={1} fz={{ base: 32, sm: 44 }} lh={1.15}>
          Banking software you can run yourself
        </Title>
        <Text fz="lg" c="dimmed">
          Coffer is an open-source digital banking platform: customer wallets and a staff back
          office over one double-entry ledger, hosted by the organisation that runs it.
        </Text>
        <Button
          component={Link}
          to="/dashboard"
          size="md"
          rightSection={<ArrowRight size={18} aria-hidden />}
        >
          Go to the dashboard
        </Button>
      </Stack>
    </Container>
  );
}
