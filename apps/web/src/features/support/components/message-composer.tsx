import { supportMessageBodySchema, supportMessageLengthMax } from '@coffer/contracts/support';
import { Trans, useLingui } from '@lingui/react/macro';
import { Group, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { intlLocale } from '../../../lib/i18n.ts';

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
  const { t } = useLingui();
  const characterCount = (length: number) => {
    const format = new Intl.NumberFormat(intlLocale());
    const typed = format.format(length);
    const limit = format.format(supportMessageLengthMax);
    return t`${typed} / ${limit} characters`;
  };
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
          otherFailureMessage: t`Your message was not sent. Please try again.`,
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
          description={characterCount(form.values.body.length)}
          {...form.getInputProps('body')}
        />
        <Group>
          <BusyButton isBusy={sending.isPending} busyLabel={t`Sending...`}>
            <Trans>Send</Trans>
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}
