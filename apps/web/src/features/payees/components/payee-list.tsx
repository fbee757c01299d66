import { type Payee, payeeNicknameLengthMax, payeeNicknameSchema } from '@coffer/contracts/payees';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { useDescribePayeeTarget } from './payee-words.ts';

function RenameDialog({ payee, onClose }: { payee: Payee | null; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal opened={payee !== null} onClose={onClose} title={t`Rename payee`}>
      {payee && <RenameForm payee={payee} onDone={onClose} />}
    </Modal>
  );
}

function RenameForm({ payee, onDone }: { payee: Payee; onDone: () => void }) {
  const { t } = useLingui();
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
              const { nickname: newNickname } = renamed;
              showSuccessToast(t`Payee renamed to "${newNickname}"`);
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
          label={t`Nickname`}
          required
          maxLength={payeeNicknameLengthMax}
          value={nickname}
          onChange={(event) => setNickname(event.currentTarget.value)}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end">
          <BusyButton isBusy={rename.isPending} busyLabel={t`Saving...`}>
            <Trans>Save</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

function DeleteDialog({ payee, onClose }: { payee: Payee | null; onClose: () => void }) {
  const { t } = useLingui();
  const describePayeeTarget = useDescribePayeeTarget();
  const remove = useDeletePayee();
  const [failure, setFailure] = useState<string | null>(null);
  const nickname = payee?.nickname;
  const target = payee ? describePayeeTarget(payee.target) : '';
  return (
    <Modal opened={payee !== null} onClose={onClose} title={t`Delete payee`}>
      {payee && (
        <Stack gap="md">
          <FormAlert message={failure} />
          <Text>
            <Trans>
              Delete <strong>{nickname}</strong> ({target})? You can add it again later, with a new
              verification code.
            </Trans>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              <Trans>Cancel</Trans>
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(payee.id, {
                  onSuccess: () => {
                    showSuccessToast(t`Payee "${nickname}" deleted`);
                    setFailure(null);
                    onClose();
                  },
                  onError: (failed) => setFailure(errorMessage(failed)),
                })
              }
            >
              <Trans>Delete payee</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The customer's payees, by nickname, each with rename and delete. */
export function PayeeList() {
  const { t } = useLingui();
  const describePayeeTarget = useDescribePayeeTarget();
  const headingId = useId();
  const payees = useQuery(payeesQueryOptions);
  const [renaming, setRenaming] = useState<Payee | null>(null);
  const [deleting, setDeleting] = useState<Payee | null>(null);
  const scheduleLabel = ({ nickname }: Payee) => t`Schedule a payment to ${nickname}`;
  const renameLabel = ({ nickname }: Payee) => t`Rename ${nickname}`;
  const deleteLabel = ({ nickname }: Payee) => t`Delete ${nickname}`;

  let content: React.ReactNode;
  if (payees.isPending) content = <LoadingState label={t`Loading payees`} />;
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
        title={t`No saved payees yet`}
        description={t`Add the people, bills and accounts you pay often, and pick them when you pay.`}
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
                aria-label={scheduleLabel(payee)}
              >
                <Trans>Schedule</Trans>
              </Button>
              <Button
                size="xs"
                variant="default"
                onClick={() => setRenaming(payee)}
                aria-label={renameLabel(payee)}
              >
                <Trans>Rename</Trans>
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => setDeleting(payee)}
                aria-label={deleteLabel(payee)}
              >
                <Trans>Delete</Trans>
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    );

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Title order={2} id={headingId} mb="md">
        <Trans>Your payees</Trans>
      </Title>
      {content}
      <RenameDialog payee={renaming} onClose={() => setRenaming(null)} />
      <DeleteDialog payee={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
