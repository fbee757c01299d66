import type { Passkey } from '@coffer/contracts/passkeys';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dialogOnDemand } from '../../../components/on-demand.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { useCanUsePasskeys } from '../../../lib/passkeys.ts';
import { passkeysQueryOptions } from '../api.ts';

// The dialogs (their forms, and the browser library that talks to the authenticator) load
// when one first opens: the profile's first screen shows only the list (ADR 030).
const AddPasskeyDialog = dialogOnDemand(
  async () => (await import('./passkey-dialogs.tsx')).AddPasskeyDialog,
);
const RenamePasskeyDialog = dialogOnDemand(
  async () => (await import('./passkey-dialogs.tsx')).RenamePasskeyDialog,
);
const RemovePasskeyDialog = dialogOnDemand(
  async () => (await import('./passkey-dialogs.tsx')).RemovePasskeyDialog,
);

type OpenDialog = { kind: 'rename' | 'remove'; passkey: Passkey };

/** The person's passkeys: name, when added, when last used; add, rename and remove. */
export function PasskeysCard() {
  const { t } = useLingui();
  const passkeys = useQuery(passkeysQueryOptions);
  const canUsePasskeys = useCanUsePasskeys();
  const [isAdding, setIsAdding] = useState(false);
  // Kept after closing, so the closing dialog still shows whose passkey it was.
  const [open, setOpen] = useState<OpenDialog | null>(null);
  const [isOpen, setIsOpen] = useState(false);
  const show = (dialog: OpenDialog) => {
    setOpen(dialog);
    setIsOpen(true);
  };
  const headingId = 'passkeys-heading';

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" mb="md" gap="sm">
        <Title order={2} id={headingId}>
          <Trans>Passkeys</Trans>
        </Title>
        {canUsePasskeys && (
          <Button variant="default" size="sm" onClick={() => setIsAdding(true)}>
            <Trans>Add a passkey</Trans>
          </Button>
        )}
      </Group>
      {passkeys.isPending && <Loader size="sm" aria-label={t`Loading passkeys`} />}
      {passkeys.isError && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(passkeys.error)}
        </Alert>
      )}
      {passkeys.data?.passkeys.length === 0 && (
        <Text size="sm" c="dimmed">
          <Trans>
            No passkeys yet. Add one to sign in with your device's screen lock instead of your
            password.
          </Trans>
        </Text>
      )}
      {passkeys.data && passkeys.data.passkeys.length > 0 && (
        <Table.ScrollContainer minWidth={560} type="native">
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Trans>Name</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Added</Trans>
                </Table.Th>
                <Table.Th>
                  <Trans>Last used</Trans>
                </Table.Th>
                <Table.Th>
                  <VisuallyHidden>
                    <Trans>Actions</Trans>
                  </VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.data.passkeys.map((passkey) => {
                const passkeyName = passkey.name;
                return (
                  <Table.Tr key={passkey.id}>
                    <Table.Td>
                      <Text size="sm">{passkey.name}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(passkey.createdAt)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : t`Never`}
                      </Text>
                    </Table.Td>
                    <Table.Td ta="end">
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <Button
                          variant="default"
                          size="compact-sm"
                          aria-label={t`Rename the passkey ${passkeyName}`}
                          onClick={() => show({ kind: 'rename', passkey })}
                        >
                          <Trans>Rename</Trans>
                        </Button>
                        <Button
                          variant="default"
                          color="red"
                          size="compact-sm"
                          aria-label={t`Remove the passkey ${passkeyName}`}
                          onClick={() => show({ kind: 'remove', passkey })}
                        >
                          <Trans>Remove</Trans>
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AddPasskeyDialog opened={isAdding} onClose={() => setIsAdding(false)} />
      <RenamePasskeyDialog
        opened={isOpen && open?.kind === 'rename'}
        passkey={open?.passkey ?? null}
        onClose={() => setIsOpen(false)}
      />
      <RemovePasskeyDialog
        opened={isOpen && open?.kind === 'remove'}
        passkey={open?.passkey ?? null}
        onClose={() => setIsOpen(false)}
      />
    </Card>
  );
}
