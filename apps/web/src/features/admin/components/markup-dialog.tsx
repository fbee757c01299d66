import {
  type MarkupChangeBody,
  type MarkupResetBody,
  markupChangeBodySchema,
  type PairMarkup,
} from '@coffer/contracts/fx-markups';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ReasonField, StaffActionButtons } from '../../../components/staff-action-form.tsx';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { contractResolver } from '../../../lib/forms.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { resetMarkup, setMarkup } from '../api.ts';

export type MarkupTarget = { markup: PairMarkup; markupBpMax: number };

type Values = { markupBp: number | string; reason: string };

/**
 * An admin's change of one pair's markup, or its return to the configured one, with the
 * reason the audit log keeps. Each carries an Idempotency-Key (useMoneyAction), so a retry
 * after a lost answer changes it once.
 */
function MarkupForm({ target, onClose }: { target: MarkupTarget; onClose: () => void }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { markup, markupBpMax } = target;
  const { pair, configuredMarkupBp } = markup;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { markupBp: markup.markupBp, reason: '' },
    validate: contractResolver(markupChangeBodySchema),
  });
  const done = async (message: string) => {
    showSuccessToast(message);
    await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    onClose();
  };
  const save = useMoneyAction({
    send: (body: MarkupChangeBody, key) => setMarkup(pair, body, key),
    onSent: () => done(t`Markup of ${pair} saved`),
    form,
  });
  const reset = useMoneyAction({
    send: (body: MarkupResetBody, key) => resetMarkup(pair, body, key),
    onSent: () => done(t`${pair} uses the configured markup again`),
    form,
  });
  const returnToConfigured = () => {
    if (form.validateField('reason').hasError) return;
    reset.submit({ reason: form.values.reason.trim() });
  };
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => save.submit(markupChangeBodySchema.parse(values)))}
    >
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            Every quote for {pair}, in either direction, uses this markup from now on. Quotes
            already shown keep theirs.
          </Trans>
        </Text>
        <FormAlert message={save.failure ?? reset.failure} />
        <NumberInput
          label={t`Markup in basis points`}
          description={t`100 basis points are 1 %. At most ${markupBpMax}; configured: ${configuredMarkupBp}.`}
          required
          min={0}
          max={markupBpMax}
          step={1}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          data-autofocus
          {...form.getInputProps('markupBp')}
        />
        <ReasonField {...form.getInputProps('reason')} />
        {markup.source === 'staff' && (
          <Button variant="default" loading={reset.isPending} onClick={returnToConfigured}>
            <Trans>Use the configured markup</Trans>
          </Button>
        )}
        <StaffActionButtons onCancel={onClose} isBusy={save.isPending} busyLabel={t`Saving...`}>
          <Trans>Save markup</Trans>
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

/** The rates page's dialog for one pair's markup (admins only: the route is theirs). */
export function MarkupDialog({
  target,
  opened,
  onClose,
}: {
  target: MarkupTarget | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const pair = target?.markup.pair ?? '';
  return (
    <Modal
      opened={opened && target !== null}
      onClose={onClose}
      title={t`Markup of ${pair}`}
      centered
    >
      {target !== null && <MarkupForm target={target} onClose={onClose} />}
    </Modal>
  );
}
