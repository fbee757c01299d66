import type { Email } from '../../platform/mail.ts';

type LinkEmail = { to: string; username: string; institutionName: string; url: string };

export function verificationEmail(email: LinkEmail): Email {
  return {
    to: email.to,
    subject: `Confirm your email address for ${email.institutionName}`,
    text: [
      `Hello ${email.username},`,
      '',
      `Please confirm this email address for your ${email.institutionName} account by opening this link within 48 hours:`,
      '',
      email.url,
      '',
      'If you did not ask for this, you can ignore this email.',
    ].join('\n'),
  };
}

export function passwordResetEmail(email: LinkEmail): Email {
  return {
    to: email.to,
    subject: `Reset your ${email.institutionName} password`,
    text: [
      `Hello ${email.username},`,
      '',
      'Someone asked to reset the password of your account. To choose a new password, open this link within 30 minutes:',
      '',
      email.url,
      '',
      'The link works once. Resetting your password signs you out everywhere.',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function emailChangeNotice(email: {
  to: string;
  username: string;
  institutionName: string;
  newEmail: string;
}): Email {
  return {
    to: email.to,
    subject: `Your ${email.institutionName} email address is being changed`,
    text: [
      `Hello ${email.username},`,
      '',
      `We were asked to change the email address of your account to ${email.newEmail}. It changes once the link we sent there is opened.`,
      '',
      'If this was not you, change your password now and contact support.',
    ].join('\n'),
  };
}

export function passwordChangedNotice(email: {
  to: string;
  username: string;
  institutionName: string;
}): Email {
  return {
    to: email.to,
    subject: `Your ${email.institutionName} password was changed`,
    text: [
      `Hello ${email.username},`,
      '',
      'The password of your account was just changed.',
      'If this was not you, reset your password now from the sign-in page and contact support.',
    ].join('\n'),
  };
}
