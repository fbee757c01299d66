import { Trans } from '@lingui/react/macro';
import { Badge, Group, Text } from '@mantine/core';

/** An email address and whether its owner has verified it, as the profile and staff see it. */
export function EmailWithStatus({ email, isVerified }: { email: string; isVerified: boolean }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text style={{ overflowWrap: 'anywhere' }}>{email}</Text>
      {isVerified ? (
        <Badge color="green" variant="light">
          <Trans>Verified</Trans>
        </Badge>
      ) : (
        <Badge color="yellow" variant="light">
          <Trans>Not verified</Trans>
        </Badge>
      )}
    </Group>
  );
}
