import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { ZodMiniType } from 'zod/mini';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useContractForm } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';

/**
 * A profile dialog's form of one field (the username, the time zone): checked by its
 * contract, saved by the feature's mutation, then a toast and the dialog closes.
 */
export function OneFieldForm<Name extends string, Result>({
  schema,
  name,
  initialValue,
  mutation,
  successMessage,
  onClose,
  children,
}: {
  schema: ZodMiniType<Record<Name, string>>;
  name: Name;
  initialValue: string;
  mutation: UseMutationResult<Result, Error, Record<Name, string>>;
  successMessage: string;
  onClose: () => void;
  /** The field, given the form's props for it. */
  children: (inputProps: GetInputPropsReturnType) => ReactNode;
}) {
  const { t } = useLingui();
  const { form, formError, onSubmit, isPending } = useContractForm({
    schema,
    initialValues: { [name]: initialValue } as Record<Name, string>,
    mutation,
    onSuccess: () => {
      showSuccessToast(successMessage);
      onClose();
    },
  });

  return (
    <form noValidate onSubmit={onSubmit}>
      <Stack gap="md">
        <FormAlert message={formError} />
        {children(form.getInputProps(name))}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <BusyButton isBusy={isPending} busyLabel={t`Saving...`}>
            <Trans>Save</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
