import type { StaffCard } from '@coffer/contracts/cards';
import { Stack, Text } from '@mantine/core';
import { FormAlert } from '../../../components/form-alert.tsx';
import {
  RejectWithReasonForm,
  StaffActionButtons,
  useStaffAction,
} from '../../../components/staff-action-form.tsx';
import { TargetModal } from '../../../components/target-modal.tsx';
import type { TargetDialogProps } from '../../../components/use-dialog-target.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { actOnCard, type StaffCardAction } from '../api.ts';

export type CardActionTarget = { card: StaffCard; action: StaffCardAction };

const titles: Record<StaffCardAction, string> = {
  issue: 'Issue card',
  decline: 'Decline card request',
  freeze: 'Freeze card',
  unfreeze: 'Unfreeze card',
};

function IssueForm({ card, onClose }: { card: StaffCard; onClose: () => void }) {
  const issue = useStaffAction({
    mutationFn: () => actOnCard(card.id, 'issue', ''),
    onDone: () => {
      showSuccessToast(`Card issued: ${card.username}`);
      onClose();
    },
    describeError: errorMessage,
  });
  const fee = formatAmountMinor(card.feeMinor, card.currency);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        issue.submit(undefined);
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          Issue a virtual card to {card.username}? The issuer makes the card now
          {card.feeMinor > 0n ? `, and the held fee of ${fee} is charged to their wallet` : ''}.
        </Text>
        <FormAlert message={issue.formError} />
        <StaffActionButtons onCancel={onClose} isBusy={issue.isPending} busyLabel="Issuing...">
          Issue card
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

const reasonForms: Record<
  Exclude<StaffCardAction, 'issue'>,
  { action: string; busy: string; color?: string; explain: (card: StaffCard) => string }
> = {
  decline: {
    action: 'Decline',
    busy: 'Declining...',
    color: 'red.9',
    explain: (card) =>
      `${card.username} sees your reason${card.feeMinor > 0n ? ' and gets the held fee back' : ''}.`,
  },
  freeze: {
    action: 'Freeze',
    busy: 'Freezing...',
    explain: (card) =>
      `Every purchase with the card ending ${card.lastFour} is declined until it is unfrozen. ${card.username} sees your reason.`,
  },
  unfreeze: {
    action: 'Unfreeze',
    busy: 'Unfreezing...',
    explain: (card) => `Purchases with the card ending ${card.lastFour} are allowed again.`,
  },
};

/** Admins issue or decline a request; staff freeze or unfreeze a card, with a reason. */
export function CardActionDialog(props: TargetDialogProps<CardActionTarget>) {
  return (
    <TargetModal {...props} title={props.target ? titles[props.target.action] : ''}>
      {({ card, action }) => {
        if (action === 'issue') return <IssueForm card={card} onClose={props.onClose} />;
        const form = reasonForms[action];
        return (
          <RejectWithReasonForm
            reject={(body) => actOnCard(card.id, action, body.reason)}
            onRejected={() => showSuccessToast(`${titles[action]}: ${card.username}`)}
            onClose={props.onClose}
            labels={form}
          >
            <Text size="sm" c="dimmed">
              {form.explain(card)}
            </Text>
          </RejectWithReasonForm>
        );
      }}
    </TargetModal>
  );
}
