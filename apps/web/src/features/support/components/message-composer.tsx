import { supportMessageBodySchema, supportMessageLengthMax } from '@coffer/contracts/support';
import { Group, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';

/** Writes one message (the contract's limit of 4,000 characters) and sends it. */
export function MessageComposer({
  label,
  send,
  onSent,
}: {
  label: string;
  send: (body: string) => Promise<unknown>;
  onSent: () => Promise<unknown>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { body: '' },
    validate: contractResolver(supportMessageBodySchema),
  });
  const sending = useMutation({
    mutationFn: send,
    onSuccess: async () => {
      form.reset();
      await onSent();
    },
    onError: (error) =>
      setFormError(
        showApiErrorOnForm(form, error, {
          otherFailureMessage: 'Your message was not sent. Please try again.',
        }),
      ),
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        sending.mutate(supportMessageBodySchema.parse(values).body);
      })}
    >
      <Stack gap="sm">
        <FormAlert message={formError} />
        <Textarea
          label={label}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={supportMessageLengthMax}
          description={`${form.values.body.length.toLocaleString()} / ${supportMessageLengthMax.toLocaleString()} characters`}
          {...form.getInputProps('body')}
        />
        <Group>
          <BusyButton isBusy={sending.isPending} busyLabel="Sending...">
            Send
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
