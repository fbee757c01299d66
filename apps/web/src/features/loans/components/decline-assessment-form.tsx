import type { AssessmentRequest } from '@coffer/contracts/loans';
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
  return (
    <RejectWithReasonForm
      reject={(body) => declineAssessment(request.userId, body)}
      onRejected={() => showSuccessToast('Assessment declined')}
      onClose={onClose}
      labels={{ action: 'Decline', busy: 'Declining...', color: 'red.9' }}
    >
      <Text size="sm">
        {request.username} is told in the bell and on the loan page, with your reason, and may ask
        again.
      </Text>
    </RejectWithReasonForm>
  );
}
