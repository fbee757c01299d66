import { z } from 'zod';

/** Everything the audit log records. Staff actions carry a reason. */
export const auditActions = [
  'login_succeeded',
  'login_failed',
  'login_locked',
  'password_changed',
  'password_reset',
  'email_change_requested',
  'email_changed',
  'username_changed',
  'totp_enabled',
  'totp_disabled',
  'account_frozen',
  'account_unfrozen',
  'level_changed',
  'role_changed',
  'admin_role_requested',
  'admin_role_approved',
  'admin_role_rejected',
  'deposit_recorded',
  'deposit_requested',
  'adjustment_recorded',
  'adjustment_requested',
  'money_request_approved',
  'money_request_rejected',
  'money_request_cancelled',
  'payout_sent',
  'payout_rejected',
  'kyc_submitted',
  'kyc_approved',
  'kyc_rejected',
  'kyc_document_viewed',
  'kyc_document_deleted',
  'dispute_filed',
  'dispute_investigating',
  'dispute_resolved',
  'dispute_rejected',
  'account_frozen_by_customer',
  'support_reply_sent',
  'loan_eligibility_set',
  'loan_approved',
  'loan_declined',
  'loan_disbursement_requested',
  'loan_disbursed',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** The words a person reads for each action. */
export const auditActionLabels: Record<AuditAction, string> = {
  login_succeeded: 'Signed in',
  login_failed: 'Failed sign-in',
  login_locked: 'Sign-in locked after failed attempts',
  password_changed: 'Password changed',
  password_reset: 'Password reset by email link',
  email_change_requested: 'Email change requested',
  email_changed: 'Email address changed',
  username_changed: 'Username changed',
  totp_enabled: 'Two-factor authentication turned on',
  totp_disabled: 'Two-factor authentication turned off',
  account_frozen: 'Transactions disabled',
  account_unfrozen: 'Transactions enabled',
  level_changed: 'Account level changed',
  role_changed: 'Staff role changed',
  admin_role_requested: 'Admin role requested, waiting for a second admin',
  admin_role_approved: 'Admin role granted by a second admin',
  admin_role_rejected: 'Admin role refused by a second admin',
  deposit_recorded: 'Deposit recorded',
  deposit_requested: 'Deposit submitted for approval',
  adjustment_recorded: 'Debit adjustment recorded',
  adjustment_requested: 'Debit adjustment submitted for approval',
  money_request_approved: 'Approved by a second admin',
  money_request_rejected: 'Rejected by a second admin',
  money_request_cancelled: 'Cancelled by the staff member who prepared it',
  payout_sent: 'Withdrawal sent',
  payout_rejected: 'Withdrawal rejected',
  kyc_submitted: 'Identity verification submitted',
  kyc_approved: 'Identity verification approved',
  kyc_rejected: 'Identity verification rejected',
  kyc_document_viewed: 'Identity document viewed by staff',
  kyc_document_deleted: 'Identity document deleted after the retention period',
  dispute_filed: 'Dispute filed',
  dispute_investigating: 'Dispute under investigation',
  dispute_resolved: 'Dispute resolved',
  dispute_rejected: 'Dispute rejected',
  account_frozen_by_customer: 'Transactions disabled at your request',
  support_reply_sent: 'Support replied',
  loan_eligibility_set: 'Loan eligibility set',
  loan_approved: 'Loan approved',
  loan_declined: 'Loan declined',
  loan_disbursement_requested: 'Loan disbursement waiting for a second admin',
  loan_disbursed: 'Loan disbursed',
};

export const auditEventSchema = z.object({
  id: z.string(),
  action: z.enum(auditActions),
  actor: z.object({ id: z.string(), username: z.string() }).nullable(),
  subject: z.object({ id: z.string(), username: z.string() }).nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string().nullable(),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEventSchema),
  nextCursor: z.string().nullable(),
});

export const auditQuerySchema = z.object({
  action: z.enum(auditActions).optional(),
  actorUserId: z.uuid().optional(),
  subjectUserId: z.uuid().optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** What a customer sees under "Activity on your account": no IP addresses of staff. */
export const customerActivitySchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      action: z.enum(auditActions),
      reason: z.string().nullable(),
      isByStaff: z.boolean(),
      createdAt: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
