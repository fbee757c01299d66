import { Trans, useLingui } from '@lingui/react/macro';
import {
  Badge,
  Box,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { ArrowRight, Check, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { homeLinkFor } from '../../../lib/return-to.ts';
import { useMe } from '../../../lib/session.ts';
import { classes } from './landing-classes.ts';

/** A wallet screen drawn with shapes: an illustration, so it shows no figures at all. */
function WalletIllustration() {
  const { t } = useLingui();
  return (
    <Paper withBorder shadow="md" radius="lg" p="lg" className={classes.heroMock} aria-hidden>
      <Stack gap="md">
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            <Trans>Your wallet</Trans>
          </Text>
          <Badge variant="light" leftSection={<ShieldCheck size={12} />}>
            <Trans>2FA on</Trans>
          </Badge>
        </Group>
        <Box className={classes.mockBar} w="45%" h={28} />
        <Group gap="xs" grow>
          <Box className={classes.mockButton}>
            <Trans>Send</Trans>
          </Box>
          <Box className={classes.mockButton}>
            <Trans>Pay bills</Trans>
          </Box>
          <Box className={classes.mockButton}>
            <Trans>Cards</Trans>
          </Box>
        </Group>
        {[t`Transfer sent`, t`Bill paid`, t`Card created`].map((label, index) => (
          <Group
            key={label}
            justify="space-between"
            className={classes.mockRow}
            style={{ animationDelay: `${index * 400}ms` }}
          >
            <Group gap={8}>
              <Box className={classes.mockIcon}>
                <Check size={12} />
              </Box>
              <Text size="sm">{label}</Text>
            </Group>
            <Box className={classes.mockBar} w={64} h={10} />
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

export function Hero({ institutionName, tagline }: { institutionName: string; tagline?: string }) {
  const me = useMe();
  const { t, i18n } = useLingui();
  return (
    <Box className={classes.hero}>
      <Container size="lg" py={{ base: 40, sm: 72 }}>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48} style={{ alignItems: 'center' }}>
          <Stack gap="lg" align="flex-start">
            <Title order={1} fz={{ base: 32, sm: 46 }} lh={1.12}>
              <Trans>Banking you can check, from {institutionName}</Trans>
            </Title>
            <Text fz="lg" c="dimmed" dir={tagline ? 'auto' : undefined}>
              {tagline ??
                t`A wallet in your own currency, instant transfers, bill payments, virtual cards and loans, with every balance kept on a double-entry ledger.`}
            </Text>
            <Group gap="sm">
              {me ? (
                <Button
                  component={Link}
                  to={homeLinkFor(me.role).to}
                  size="md"
                  rightSection={
                    <ArrowRight size={18} aria-hidden className={classes.mirrorInRtl} />
                  }
                >
                  {i18n._(homeLinkFor(me.role).label)}
                </Button>
              ) : (
                <>
                  <Button
                    component={Link}
                    to="/signup"
                    size="md"
                    rightSection={
                      <ArrowRight size={18} aria-hidden className={classes.mirrorInRtl} />
                    }
                  >
                    <Trans>Create Account</Trans>
                  </Button>
                  <Button component={Link} to="/signin" size="md" variant="default">
                    <Trans>Login</Trans>
                  </Button>
                </>
              )}
            </Group>
          </Stack>
          <WalletIllustration />
        </SimpleGrid>
      </Container>
    </Box>
  );
}
