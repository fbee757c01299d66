import type { Email } from '../../platform/mail.ts';

type DecisionEmail = {
  to: string;
  username: string;
  institutionName: string;
  kycUrl: string;
};

export function kycApprovedEmail(email: DecisionEmail & { level: number }): Email {
  return {
    to: email.to,
    subject: `Your identity is verified at ${email.institutionName}`,
    text: [
      `Hello ${email.username},`,
      '',
      `We checked your identity document and approved your verification. Your account is now level ${email.level}: you can withdraw money and apply for loans.`,
      '',
      email.kycUrl,
    ].join('\n'),
  };
}

export function kycRejectedEmail(email: DecisionEmail & { reason: string }): Email {
  return {
    to: email.to,
    subject: `Your identity verification at ${email.institutionName} was not approved`,
    text: [
      `Hello ${email.username},`,
      '',
      'We could not approve your identity verification, for this reason:',
      '',
      email.reason,
      '',
      'You can submit it again, free of charge, on this page:',
      '',
      email.kycUrl,
    ].join('\n'),
  };
}
