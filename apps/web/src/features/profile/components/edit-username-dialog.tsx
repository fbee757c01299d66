import { updateUsernameBodySchema } from '@coffer/contracts/profile';
import { useLingui } from '@lingui/react/macro';
import { TextInput } from '@mantine/core';
import { Modal } from '../../../components/modal.tsx';
import { useUpdateUsername } from '../api.ts';
import { OneFieldForm } from './one-field-form.tsx';

/** The form lives inside the dialog, so it starts afresh each time the dialog opens. */
export function EditUsernameDialog({
  opened,
  currentUsername,
  onClose,
}: {
  opened: boolean;
  currentUsername: string;
  onClose: () => void;
}) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Edit Username`} centered>
      <OneFieldForm
        schema={updateUsernameBodySchema}
        name="username"
        initialValue={currentUsername}
        mutation={useUpdateUsername()}
        successMessage={t`Your username has been updated.`}
        onClose={onClose}
      >
        {(inputProps) => (
          <TextInput label={t`Username`} autoComplete="username" data-autofocus {...inputProps} />
        )}
      </OneFieldForm>
    </Modal>
  );
}
