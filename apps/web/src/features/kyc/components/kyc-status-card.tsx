import { type KycOverview, kycPendingMessage } from '@coffer/contracts/kyc';
import { Alert, Text } from '@mantine/core';
import { BadgeCheck, CircleAlert, Clock, ShieldQuestion } from 'lucide-react';
import { formatDate } from '../../../lib/dates.ts';

/** Where the customer's verification stands: none, pending, approved, or rejected and why. */
export function KycStatusCard({ overview }: { overview: KycOverview }) {
  const { latest, level } = overview;
  if (!latest) {
    return (
      <Alert color="gray" icon={<ShieldQuestion size={18} aria-hidden />} title="Not verified yet">
        Your account is level {level}. Verify your identity to reach level 2: withdrawals and loans.
        Verification is free.
      </Alert>
    );
  }
  if (latest.status === 'pending') {
    return (
      <Alert color="yellow" icon={<Clock size={18} aria-hidden />} title="Pending review">
        {kycPendingMessage} Submitted {formatDate(latest.createdAt)}.
      </Alert>
    );
  }
  if (latest.status === 'approved') {
    return (
      <Alert color="green" icon={<BadgeCheck size={18} aria-hidden />} title="Verified">
        Your identity is verified. Your account is level {level}.
      </Alert>
    );
  }
  return (
    <Alert color="red" icon={<CircleAlert size={18} aria-hidden />} title="Not approved">
      <Text size="sm">Your verification was not approved: {latest.reason}</Text>
      <Text size="sm" mt={4}>
        You can correct it and submit again below.
      </Text>
    </Alert>
  );
}
