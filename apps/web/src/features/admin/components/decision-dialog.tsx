import { type MoneyRequest, rejectBodySchema } from '@coffer/contracts/admin';
import { errorCodes } from '@coffer/contracts/errors';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { z } from 'zod';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { contractResolver, showApiErrorOnForm } from '../../../lib/forms.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { adminQueryRoot, decideMoneyRequest } from '../api.ts';
import { moneyRequestDirectionLabels } from './badges.tsx';

export type Decision = 'approve' | 'reject';

// Approving needs no words (the request already has its reason); an optional note is kept.
const approveFormSchema = z.object({
  reason: z.string().trim().max(500, 'Use at most 500 characters'),
});

function describeRequest(request: MoneyRequest): string {
  const amount = formatAmountMinor(request.amountMinor, request.currency, {
    currencyDisplay: 'code',
  });
  return `${moneyRequestDirectionLabels[request.direction]} of ${amount} for ${request.username}`;
}

function DecisionForm({
  request,
  decision,
  onClose,
}: {
  request: MoneyRequest;
  decision: Decision;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const isApproval = decision === 'approve';
  const form = useForm({
    mode: 'controlled',
    initialValues: { reason: '' },
    validate: contractResolver(isApproval ? approveFormSchema : rejectBodySchema),
  });
  const decide = useMutation({
    mutationFn: (reason: string) =>
      decideMoneyRequest(request.id, decision, reason === '' ? {} : { reason }),
    onSuccess: async (decided) => {
      showSuccessToast(
        decided.status === 'posted'
          ? `Approved and posted: ${describeRequest(decided)}`
          : `Rejected: ${describeRequest(decided)}`,
      );
      onClose();
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
    onError: (error) =>
      setFormError(
        showApiErrorOnForm(form, error, { otherFailureMessage: errorCodes.internal.message }),
      ),
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        setFormError(null);
        decide.mutate(values.reason.trim());
      })}
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            {describeRequest(request)}
          </Text>
          <Text size="sm">
            Prepared by {request.maker.username}: {request.reason}
          </Text>
          {request.externalReference && (
            <Text size="sm">Reference: {request.externalReference}</Text>
          )}
          <Text size="sm" c="dimmed">
            {isApproval
              ? 'Approving posts it to the ledger at once.'
              : 'Rejecting closes it without moving any money.'}
          </Text>
        </Stack>
        <FormAlert message={formError} />
        <Textarea
          label={isApproval ? 'Note (optional)' : 'Reason'}
          required={!isApproval}
          autosize
          minRows={2}
          maxRows={6}
          data-autofocus
          {...form.getInputProps('reason')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <BusyButton
            isBusy={decide.isPending}
            busyLabel={isApproval ? 'Approving...' : 'Rejecting...'}
            color={isApproval ? undefined : 'red.9'}
          >
            {isApproval ? 'Approve' : 'Reject'}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

export type DecisionTarget = { request: MoneyRequest; decision: Decision };

/** The second pair of eyes: approve (posts) or reject (with a reason) a pending request. */
export function DecisionDialog({
  target,
  opened,
  onClose,
  onExited,
}: {
  target: DecisionTarget | null;
  opened: boolean;
  onClose: () => void;
  onExited: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      onExitTransitionEnd={onExited}
      title={target?.decision === 'reject' ? 'Reject request' : 'Approve request'}
      centered
    >
      {target && (
        <DecisionForm request={target.request} decision={target.decision} onClose={onClose} />
      )}
    </Modal>
  );
}
