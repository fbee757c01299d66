import type { AssessmentRequest } from '@coffer/contracts/loans';
import { Trans, useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import { RejectWithReasonForm } from '../../../components/staff-action-form.tsx';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { declineAssessment } from '../api.ts';

/** Declining an assessment request: the reason the customer reads, and what follows. */
export function DeclineAssessmentForm({
  request,
  onClose,
}: {
  request: AssessmentRequest;
  onClose: () => void;
}) {
  const { t } = useLingui();
  const username = request.username;
  return (
    <RejectWithReasonForm
      reject={(body) => declineAssessment(request.userId, body)}
      onRejected={() => showSuccessToast(t`Assessment declined`)}
      onClose={onClose}
      labels={{ action: t`Decline`, busy: t`Declining...`, color: 'red.9' }}
    >
      <Text size="sm">
        <Trans>
          {username} is told in the bell and on the loan page, with your reason, and may ask again.
        </Trans>
      </Text>
    </RejectWithReasonForm>
  );
}
