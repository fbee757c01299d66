import { rejectBodySchema } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Textarea, type TextareaProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { adminQueryRoot } from '../lib/back-office.ts';
import { contractResolver, showApiErrorOnForm } from '../lib/forms.ts';
import { BusyButton } from './busy-button.tsx';
import { FormAlert } from './form-alert.tsx';

/**
 * The mutation behind every staff dialog: on success it reports (toast, close) and
 * refreshes the back office's data; on failure it keeps the message for the form.
 */
export function useStaffAction<Body, Result>(options: {
  mutationFn: (body: Body) => Promise<Result>;
  onDone: (result: Result) => void;
  describeError: (error: unknown) => string | null;
}) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result) => {
      options.onDone(result);
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
    onError: (error) => setFormError(options.describeError(error)),
  });
  return {
    formError,
    isPending: mutation.isPending,
    submit: (body: Body) => {
      setFormError(null);
      mutation.mutate(body);
    },
  };
}

/** Beside every staff field whose text the customer will read (issue #31, 3). */
export const customerSeesThis = <Trans>The customer sees this.</Trans>;

/** The reason every staff action records in the audit log. */
export function ReasonField(props: TextareaProps) {
  const { t } = useLingui();
  return <Textarea label={t`Reason`} required autosize minRows={2} maxRows={6} {...props} />;
}

export function StaffActionButtons({
  onCancel,
  isBusy,
  busyLabel,
  color,
  disabled,
  children,
}: {
  onCancel: () => void;
  isBusy: boolean;
  busyLabel: string;
  color?: string | undefined;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </Button>
      <BusyButton isBusy={isBusy} busyLabel={busyLabel} color={color} disabled={disabled}>
        {children}
      </BusyButton>
    </Group>
  );
}

/**
 * A staff rejection: a required reason the customer will see, above it what is rejected
 * and what rejecting does (`children`). `reject` sends it; `onRejected` reports success.
 * Other actions that need a reason (decline, freeze) name their button with `labels`.
 */
export function RejectWithReasonForm<Result>({
  reject,
  onRejected,
  onClose,
  labels,
  children,
}: {
  reject: (body: { reason: string }) => Promise<Result>;
  onRejected: (result: Result) => void;
  onClose: () => void;
  labels?: { action: string; busy: string; color?: string };
  children: ReactNode;
}) {
  const { t } = useLingui();
  const {
    action: actionLabel,
    busy,
    color,
  } = labels ?? {
    action: t`Reject`,
    busy: t`Rejecting...`,
    color: 'red.9',
  };
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(rejectBodySchema),
  });
  const action = useStaffAction({
    mutationFn: (reason: string) => reject({ reason }),
    onDone: (result) => {
      onRejected(result);
      onClose();
    },
    describeError: (error) =>
      showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
  });
  return (
    <form noValidate onSubmit={form.onSubmit((values) => action.submit(values.reason.trim()))}>
      <Stack gap="md">
        {children}
        <FormAlert message={action.formError} />
        <ReasonField
          data-autofocus
          description={customerSeesThis}
          {...form.getInputProps('reason')}
        />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={action.isPending}
          busyLabel={busy}
          color={color}
        >
          {actionLabel}
        </StaffActionButtons>
      </Stack>
    </form>
  );
}
