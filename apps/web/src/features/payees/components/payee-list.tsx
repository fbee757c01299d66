import {
  describePayeeTarget,
  type Payee,
  payeeNicknameLengthMax,
  payeeNicknameSchema,
} from '@coffer/contracts/payees';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { Modal } from '../../../components/modal.tsx';
import { LoadingState, NothingFound } from '../../../components/query-states.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { payeesQueryOptions, useDeletePayee, useRenamePayee } from '../api.ts';

function RenameDialog({ payee, onClose }: { payee: Payee | null; onClose: () => void }) {
  return (
    <Modal opened={payee !== null} onClose={onClose} title="Rename payee">
      {payee && <RenameForm payee={payee} onDone={onClose} />}
    </Modal>
  );
}

function RenameForm({ payee, onDone }: { payee: Payee; onDone: () => void }) {
  const rename = useRenamePayee(payee.id);
  const [nickname, setNickname] = useState(payee.nickname);
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const checked = payeeNicknameSchema.safeParse(nickname);
        if (!checked.success) {
          setError(checked.error.issues[0]?.message);
          return;
        }
        rename.mutate(
          { nickname: checked.data },
          {
            onSuccess: (renamed) => {
              showSuccessToast(`Payee renamed to "${renamed.nickname}"`);
              onDone();
            },
            onError: (failed) => setFailure(errorMessage(failed)),
          },
        );
      }}
    >
      <Stack gap="md">
        <FormAlert message={failure} />
        <TextInput
          label="Nickname"
          required
          maxLength={payeeNicknameLengthMax}
          value={nickname}
          onChange={(event) => setNickname(event.currentTarget.value)}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end">
          <BusyButton isBusy={rename.isPending} busyLabel="Saving...">
            Save
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteDialog({ payee, onClose }: { payee: Payee | null; onClose: () => void }) {
  const remove = useDeletePayee();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Modal opened={payee !== null} onClose={onClose} title="Delete payee">
      {payee && (
        <Stack gap="md">
          <FormAlert message={failure} />
          <Text>
            Delete <strong>{payee.nickname}</strong> ({describePayeeTarget(payee.target)})? You can
            add it again later, with a new verification code.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(payee.id, {
                  onSuccess: () => {
                    showSuccessToast(`Payee "${payee.nickname}" deleted`);
                    setFailure(null);
                    onClose();
                  },
                  onError: (failed) => setFailure(errorMessage(failed)),
                })
              }
            >
              Delete payee
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The customer's payees, by nickname, each with rename and delete. */
export function PayeeList() {
  const headingId = useId();
  const payees = useQuery(payeesQueryOptions);
  const [renaming, setRenaming] = useState<Payee | null>(null);
  const [deleting, setDeleting] = useState<Payee | null>(null);

  let content: React.ReactNode;
  if (payees.isPending) content = <LoadingState label="Loading payees" />;
  else if (payees.isError)
    content = (
      <LoadFailed
        error={payees.error}
        isRetrying={payees.isFetching}
        onRetry={() => void payees.refetch()}
      />
    );
  else if (payees.data.items.length === 0)
    content = (
      <NothingFound
        title="No saved payees yet"
        description="Add the people, bills and accounts you pay often, and pick them when you pay."
      />
    );
  else
    content = (
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {payees.data.items.map((payee) => (
          <Group key={payee.id} component="li" justify="space-between" wrap="nowrap">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {payee.nickname}
              </Text>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {describePayeeTarget(payee.target)}
              </Text>
            </Stack>
            <Group gap="xs" wrap="nowrap">
              <Button
                size="xs"
                variant="default"
                component={Link}
                to={`/scheduled-payments?payee=${encodeURIComponent(payee.id)}`}
                aria-label={`Schedule a payment to ${payee.nickname}`}
              >
                Schedule
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => setRenaming(payee)}
                aria-label={`Rename ${payee.nickname}`}
              >
                Rename
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => setDeleting(payee)}
                aria-label={`Delete ${payee.nickname}`}
              >
                Delete
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        Your payees
      </Title>
      {content}
      <RenameDialog payee={renaming} onClose={() => setRenaming(null)} />
      <DeleteDialog payee={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
