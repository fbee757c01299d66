import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';

/**
 * PRODUCT.md "Upgrade Required": the account's level does not allow payouts; identity
 * verification on /kyc raises it.
 */
export function UpgradeRequiredDialog({
  message,
  onClose,
}: {
  /** The level message; null keeps the dialog closed. */
  message: string | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <ModalOnDemand opened={message !== null} onClose={onClose} title={t`Upgrade Required`} centered>
      <Stack gap="sm">
        <Text>{message}</Text>
        <Text>
          <Trans>Verify your identity to reach level 2. It is free and takes a few minutes.</Trans>
        </Text>
      </Stack>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          <Trans>Close</Trans>
        </Button>
        <Button component={Link} to="/kyc">
          <Trans>Verify your identity</Trans>
        </Button>
      </Group>
    </ModalOnDemand>
  );
}
