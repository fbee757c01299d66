import type { Me } from '@coffer/contracts/auth';
import { kycApprovedLevel } from '@coffer/contracts/kyc';
import { Trans } from '@lingui/react/macro';
import { Anchor, Group, Text } from '@mantine/core';
import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';

/**
 * The account's level on the dashboard, with the way up while it is below 2. It reads the
 * signed-in person, which a live `kyc` event refreshes: a decision shows without a reload.
 */
export function AccountLevelNotice({ me }: { me: Me }) {
  const { level } = me;
  return (
    <Group gap="xs" wrap="wrap">
      <ShieldCheck size={16} aria-hidden />
      <Text size="sm" data-testid="account-level">
        <Trans>Account level {level}</Trans>
      </Text>
      {level < kycApprovedLevel && (
        <Anchor component={Link} to="/kyc" size="sm">
          <Trans>Verify your identity to withdraw</Trans>
        </Anchor>
      )}
    </Group>
  );
}
