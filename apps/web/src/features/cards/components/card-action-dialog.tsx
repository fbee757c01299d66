import type { StaffCard } from '@coffer/contracts/cards';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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

const titles: Record<StaffCardAction, MessageDescriptor> = {
  issue: msg`Issue card`,
  decline: msg`Decline card request`,
  freeze: msg`Freeze card`,
  unfreeze: msg`Unfreeze card`,
};

function IssueForm({ card, onClose }: { card: StaffCard; onClose: () => void }) {
  const { t } = useLingui();
  const username = card.username;
  const issue = useStaffAction({
    mutationFn: () => actOnCard(card.id, 'issue', ''),
    onDone: () => {
      showSuccessToast(t`Card issued: ${username}`);
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
          {card.feeMinor > 0n ? (
            <Trans>
              Issue a virtual card to {username}? The issuer makes the card now, and the held fee of{' '}
              <bdi>{fee}</bdi> is charged to their wallet.
            </Trans>
          ) : (
            <Trans>Issue a virtual card to {username}? The issuer makes the card now.</Trans>
          )}
        </Text>
        <FormAlert message={issue.formError} />
        <StaffActionButtons onCancel={onClose} isBusy={issue.isPending} busyLabel={t`Issuing...`}>
          <Trans>Issue card</Trans>
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

type ReasonAction = Exclude<StaffCardAction, 'issue'>;

/** The words of a reason form: its button, its busy label and what the action does. */
function useReasonFormWords(): (
  action: ReasonAction,
  card: StaffCard,
) => { action: string; busy: string; color?: string; explain: string } {
  const { t } = useLingui();
  return (action, card) => {
    const username = card.username;
    const lastFour = card.lastFour ?? '';
    switch (action) {
      case 'decline':
        return {
          action: t`Decline`,
          busy: t`Declining...`,
          color: 'red.9',
          explain:
            card.feeMinor > 0n
              ? t`${username} sees your reason and gets the held fee back.`
              : t`${username} sees your reason.`,
        };
      case 'freeze':
        return {
          action: t`Freeze`,
          busy: t`Freezing...`,
          explain: t`Every purchase with the card ending ${lastFour} is declined until it is unfrozen. ${username} sees your reason.`,
        };
      case 'unfreeze':
        return {
          action: t`Unfreeze`,
          busy: t`Unfreezing...`,
          explain: t`Purchases with the card ending ${lastFour} are allowed again.`,
        };
    }
  };
}

/** Admins issue or decline a request; staff freeze or unfreeze a card, with a reason. */
export function CardActionDialog(props: TargetDialogProps<CardActionTarget>) {
  const { t, i18n } = useLingui();
  const wordsOf = useReasonFormWords();
  return (
    <TargetModal {...props} title={props.target ? i18n._(titles[props.target.action]) : ''}>
      {({ card, action }) => {
        if (action === 'issue') return <IssueForm card={card} onClose={props.onClose} />;
        const words = wordsOf(action, card);
        const title = i18n._(titles[action]);
        const username = card.username;
        return (
          <RejectWithReasonForm
            reject={(body) => actOnCard(card.id, action, body.reason)}
            onRejected={() => showSuccessToast(t`${title}: ${username}`)}
            onClose={props.onClose}
            labels={words}
          >
            <Text size="sm" c="dimmed">
              {words.explain}
            </Text>
          </RejectWithReasonForm>
        );
      }}
    </TargetModal>
  );
}
