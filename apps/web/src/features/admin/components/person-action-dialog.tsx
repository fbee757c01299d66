import { Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import {
  ReasonField,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';

/** What every dialog about one person receives: whom, and its open state. */
export type PersonDialogProps<Target> = {
  /** Whom the dialog is about; it keeps its content while it closes. */
  user: Target | null;
  opened: boolean;
  onClose: () => void;
  onExited?: () => void;
};

/**
 * The one shape of a staff action on a person (freeze, level, role): a dialog titled for
 * them, holding the action's form (`PersonActionForm`) while they are set.
 */
export function PersonActionDialog<Target>({
  user,
  opened,
  onClose,
  onExited,
  title,
  children,
}: PersonDialogProps<Target> & {
  title: (user: Target) => string;
  children: (user: Target) => ReactNode;
}) {
  return (
    <Modal
      opened={opened && user !== null}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={user === null ? '' : title(user)}
      centered
    >
      {user !== null && children(user)}
    </Modal>
  );
}

type PersonActionFormProps<Values extends { reason: string }, Body, Result> = {
  form: UseFormReturnType<Values>;
  /** The body sent, from the checked values (the contract's parse). */
  toBody: (values: Values) => Body;
  send: (body: Body) => Promise<Result>;
  onDone: (result: Result) => void;
  describeError: (error: unknown) => string | null;
  /** What the action will do, above the form. */
  intro?: ReactNode;
  /** The action's own field, above the reason (which has the focus when there is none). */
  field?: ReactNode;
  /** Beside the reason: whether the person it is about will read it. */
  reasonDescription?: ReactNode;
  buttons: { label: string; busyLabel: string; color?: string | undefined; disabled?: boolean };
  onClose: () => void;
};

/**
 * A staff action's form: what it will do, the form's refusal, the action's own field, the
 * reason the audit log keeps, and the buttons.
 */
export function PersonActionForm<Values extends { reason: string }, Body, Result>({
  form,
  toBody,
  send,
  onDone,
  describeError,
  intro,
  field,
  reasonDescription,
  buttons,
  onClose,
}: PersonActionFormProps<Values, Body, Result>) {
  const save = useStaffAction({
    mutationFn: send,
    onDone: (result) => {
      onDone(result);
      onClose();
    },
    describeError,
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => save.submit(toBody(values)))}>
      <Stack gap="md">
        {intro}
        <FormAlert message={save.formError} />
        {field}
        <ReasonField
          {...(field === undefined ? { 'data-autofocus': true } : {})}
          description={reasonDescription}
          {...form.getInputProps('reason')}
        />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={save.isPending}
          busyLabel={buttons.busyLabel}
          color={buttons.color}
          {...(buttons.disabled === undefined ? {} : { disabled: buttons.disabled })}
        >
          {buttons.label}
        </StaffActionButtons>
      </Stack>
    </form>
  );
}
