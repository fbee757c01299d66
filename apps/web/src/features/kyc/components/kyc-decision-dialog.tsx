import type { StaffKycSubmission } from '@coffer/contracts/kyc';
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
import { showSuccessToast } from '../../../lib/toasts.ts';
import { approveKyc, rejectKyc } from '../api.ts';

export type KycDecision = 'approve' | 'reject';
export type KycDecisionTarget = { submission: StaffKycSubmission; decision: KycDecision };

function ApproveForm({
  submission,
  onClose,
}: {
  submission: StaffKycSubmission;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const { username } = submission.user;
  const { legalName } = submission;
  const approve = useStaffAction({
    mutationFn: () => approveKyc(submission.id),
    onDone: () => {
      showSuccessToast(t`Verification approved: ${username}`);
      onClose();
    },
    describeError: errorMessage,
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        approve.submit(undefined);
      }}
    >
      <Stack gap="md">
        <Text size="sm">
          <Trans>
            Approve {username}'s identity? Their account becomes level 2 (a higher level stays), and
            they are told at once and by email.
          </Trans>
        </Text>
        {submission.legalName !== null && (
          <Text size="sm">
            <Trans>
              Statements, new cards and staff pages will name them <strong>{legalName}</strong>.
            </Trans>
          </Text>
        )}
        <FormAlert message={approve.formError} />
        <StaffActionButtons
          onCancel={onClose}
          isBusy={approve.isPending}
          busyLabel={t`Approving...`}
        >
          <Trans>Approve</Trans>
        </StaffActionButtons>
      </Stack>
    </form>
  );
}

function RejectForm({
  submission,
  onClose,
}: {
  submission: StaffKycSubmission;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const { username } = submission.user;
  return (
    <RejectWithReasonForm
      reject={(body) => rejectKyc(submission.id, body)}
      onRejected={() => showSuccessToast(t`Verification rejected: ${username}`)}
      onClose={onClose}
      labels={{ action: t`Reject`, busy: t`Rejecting...`, color: 'red.9' }}
    >
      <Text size="sm" c="dimmed">
        <Trans>{username} sees your reason and may submit again.</Trans>
      </Text>
    </RejectWithReasonForm>
  );
}

/** Staff approve a pending verification, or reject it with a reason the customer sees. */
export function KycDecisionDialog(props: TargetDialogProps<KycDecisionTarget>) {
  const { t } = useLingui();
  return (
    <TargetModal
      {...props}
      title={props.target?.decision === 'reject' ? t`Reject verification` : t`Approve verification`}
    >
      {(target) =>
        target.decision === 'approve' ? (
          <ApproveForm submission={target.submission} onClose={props.onClose} />
        ) : (
          <RejectForm submission={target.submission} onClose={props.onClose} />
        )
      }
    </TargetModal>
  );
}
