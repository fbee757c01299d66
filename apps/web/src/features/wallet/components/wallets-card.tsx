import { Trans } from '@lingui/react/macro';
import { Button, Card, Group, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { walletsQueryOptions } from '../api.ts';
import { EstimatedTotal, WalletsTable } from './wallets-table.tsx';

/**
 * The dashboard's list of every wallet when the customer holds more than one (issue #33),
 * with their total in the main currency labelled as an estimate.
 */
export function WalletsCard() {
  const headingId = useId();
  const wallets = useQuery(walletsQueryOptions);
  if (!wallets.data || wallets.data.items.length < 2) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} id={headingId}>
            <Trans>Your wallets</Trans>
          </Title>
          <Group gap="xs">
            <Button component={Link} to="/exchange" variant="light" size="xs">
              <Trans>Exchange</Trans>
            </Button>
            <Button component={Link} to="/wallets" variant="subtle" size="xs">
              <Trans>All wallets</Trans>
            </Button>
          </Group>
        </Group>
        <WalletsTable wallets={wallets.data} />
        <EstimatedTotal wallets={wallets.data} />
      </Stack>
    </Card>
  );
}
