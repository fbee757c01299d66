import { z } from './zod.ts';

/**
 * How a kind of notification reaches people besides the bell. `always`: by email too,
 * whatever the customer chose (security events); `preference`: by email unless the
 * customer switched those emails off on the profile; `never`: the bell only.
 */
export type NotificationEmail = 'always' | 'preference' | 'never';

/**
 * Every kind of notification and whether it goes by email. A feature adds its kind here
 * (KYC decided, card issued, loan decided …) and calls `notify` in its own transaction.
 */
export const notificationKinds = {
  money_received: { email: 'preference' },
  // Money the customer sent themselves: in the bell, not worth an email.
  money_sent: { email: 'never' },
  bill_paid: { email: 'never' },
  payout_requested: { email: 'never' },
  deposit_posted: { email: 'preference' },
  // Sandbox test money the customer added themselves: in the bell, as every money in is.
  test_money_added: { email: 'never' },
  account_debited: { email: 'preference' },
  payout_sent: { email: 'preference' },
  payout_rejected: { email: 'preference' },
  dispute_updated: { email: 'preference' },
  support_reply: { email: 'preference' },
  // A colleague passed a support thread to this member of staff: their bell only.
  support_thread_assigned: { email: 'never' },
  new_device_sign_in: { email: 'always' },
  password_changed: { email: 'always' },
  two_factor_enabled: { email: 'always' },
  two_factor_disabled: { email: 'always' },
  // A passkey signs in without the password: adding or removing one is always told.
  passkey_added: { email: 'always' },
  passkey_removed: { email: 'always' },
  email_changed: { email: 'always' },
  // A new payee is how a taken-over account moves money out: always told.
  payee_added: { email: 'always' },
  // The outcome of a verification the customer asked for, which #14 promises by email.
  kyc_approved: { email: 'always' },
  kyc_rejected: { email: 'always' },
  card_issued: { email: 'preference' },
  card_declined: { email: 'preference' },
  // Staff froze or unfroze the card: the customer must hear it, with the reason.
  card_frozen: { email: 'preference' },
  card_unfrozen: { email: 'preference' },
  loan_eligibility_set: { email: 'preference' },
  loan_assessment_declined: { email: 'preference' },
  loan_decided: { email: 'preference' },
  loan_disbursed: { email: 'preference' },
  // A repayment the customer made themselves is in the bell only; a collection by us is mailed.
  loan_repaid: { email: 'never' },
  loan_collected: { email: 'preference' },
  loan_collection_short: { email: 'preference' },
  // A scheduled payment was refused and will be tried again, or was missed: money the
  // customer expected to leave did not, so they hear it by email too.
  scheduled_payment_retrying: { email: 'preference' },
  scheduled_payment_missed: { email: 'preference' },
  // The customer's own data, ready to download for seven days: told whatever they chose.
  data_export_ready: { email: 'always' },
} as const satisfies Record<string, { email: NotificationEmail }>;
export type NotificationKind = keyof typeof notificationKinds;

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  text: z.string(),
  /** The page inside Coffer where the news can be seen, if any ("/dispute"). */
  link: z.nullable(z.string()),
  isRead: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({
  cursor: z.optional(z.uuid()),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
});

export const notificationPageSchema = z.object({
  items: z.array(notificationSchema),
  unreadCount: z.number().check(z.int()),
  nextCursor: z.nullable(z.string()),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const notificationEmailSettingSchema = z.object({ wantsNotificationEmails: z.boolean() });
export type NotificationEmailSetting = z.infer<typeof notificationEmailSettingSchema>;

/** Whether a kind goes by email (every kind may be `never`, even if none is today). */
export function emailModeOf(kind: NotificationKind): NotificationEmail {
  return notificationKinds[kind].email;
}
