import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { ModalOnDemand } from './modal-on-demand.ts';

/**
 * PRODUCT.md "Account frozen" dialog: shown instead of sending, withdrawing or paying
 * when staff froze the account, with the server's message (it carries their reason). Its
 * modal loads when it first opens: most visits never see it.
 */
export function AccountFrozenDialog({
  message,
  onClose,
}: {
  /** The server's `account_frozen` message; null keeps the dialog closed. */
  message: string | null;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <ModalOnDemand opened={message !== null} onClose={onClose} title={t`Account frozen`} centered>
      <Text>{message}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>
          <Trans>OK</Trans>
        </Button>
      </Group>
    </ModalOnDemand>
  );
}
