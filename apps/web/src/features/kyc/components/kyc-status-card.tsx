import { type KycOverview, kycPendingMessage } from '@coffer/contracts/kyc';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { BadgeCheck, CircleAlert, Clock, ShieldQuestion } from 'lucide-react';
import { formatDate } from '../../../lib/dates.ts';

function SubmittedOn({ isoDate }: { isoDate: string }) {
  const submittedOn = formatDate(isoDate);
  return <Trans>Submitted {submittedOn}.</Trans>;
}

/** Where the customer's verification stands: none, pending, approved, or rejected and why. */
export function KycStatusCard({ overview }: { overview: KycOverview }) {
  const { t } = useLingui();
  const { latest, level } = overview;
  if (!latest) {
    return (
      <Alert
        color="gray"
        icon={<ShieldQuestion size={18} aria-hidden />}
        title={t`Not verified yet`}
      >
        <Trans>
          Your account is level {level}. Verify your identity to reach level 2: withdrawals and
          loans. Verification is free.
        </Trans>
      </Alert>
    );
  }
  if (latest.status === 'pending') {
    return (
      <Alert color="yellow" icon={<Clock size={18} aria-hidden />} title={t`Pending review`}>
        {kycPendingMessage} <SubmittedOn isoDate={latest.createdAt} />
      </Alert>
    );
  }
  if (latest.status === 'approved') {
    return (
      <Alert color="green" icon={<BadgeCheck size={18} aria-hidden />} title={t`Verified`}>
        <Trans>Your identity is verified. Your account is level {level}.</Trans>
      </Alert>
    );
  }
  const { reason } = latest;
  return (
    <Alert color="red" icon={<CircleAlert size={18} aria-hidden />} title={t`Not approved`}>
      <Text size="sm">
        <Trans>Your verification was not approved: {reason}</Trans>
      </Text>
      <Text size="sm" mt={4}>
        <Trans>You can correct it and submit again below.</Trans>
      </Text>
    </Alert>
  );
}
