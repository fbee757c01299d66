import type { NewNotification } from '../../platform/notifications.ts';

type Recipient = { userId: string; username: string; institutionName: string };

/** The bell's line and the fuller email of an approved verification. */
export function kycApprovedNotification(recipient: Recipient & { level: number }): NewNotification {
  return {
    userId: recipient.userId,
    kind: 'kyc_approved',
    text: `Your identity is verified: your account is now level ${recipient.level}.`,
    link: '/kyc',
    email: {
      subject: `Your identity is verified at ${recipient.institutionName}`,
      text: [
        `Hello ${recipient.username},`,
        '',
        `We checked your identity document and approved your verification. Your account is now level ${recipient.level}: you can withdraw money and apply for loans.`,
      ].join('\n'),
    },
  };
}

/** The bell's line and the fuller email of a rejected verification, with the reason. */
export function kycRejectedNotification(
  recipient: Recipient & { reason: string },
): NewNotification {
  return {
    userId: recipient.userId,
    kind: 'kyc_rejected',
    text: `Your identity verification was not approved: ${recipient.reason}`,
    link: '/kyc',
    email: {
      subject: `Your identity verification at ${recipient.institutionName} was not approved`,
      text: [
        `Hello ${recipient.username},`,
        '',
        'We could not approve your identity verification, for this reason:',
        '',
        recipient.reason,
        '',
        'You can submit it again, free of charge.',
      ].join('\n'),
    },
  };
}
