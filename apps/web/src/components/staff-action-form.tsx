import { Button, Group, Textarea, type TextareaProps } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { adminQueryRoot } from '../lib/back-office.ts';
import { BusyButton } from './busy-button.tsx';

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

/** The reason every staff action records in the audit log. */
export function ReasonField(props: TextareaProps) {
  return <Textarea label="Reason" required autosize minRows={2} maxRows={6} {...props} />;
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
        Cancel
      </Button>
      <BusyButton isBusy={isBusy} busyLabel={busyLabel} color={color} disabled={disabled}>
        {children}
      </BusyButton>
    </Group>
  );
}
