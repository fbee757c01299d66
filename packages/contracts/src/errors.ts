import { recipientRefusedMessage } from './recipient.ts';
import { z } from './zod.ts';

/**
 * Every expected failure the API can answer with. Each code has one HTTP status and one
 * message, the product's own words where PRODUCT.md gives them.
 */
export const errorCodes = {
  /** The request body, query or params do not match the route's schema. */
  validation_failed: { status: 400, message: 'Some fields are not valid.' },
  /** A money-moving request came without an Idempotency-Key header. */
  idempotency_key_required: {
    status: 400,
    message: 'This request needs an Idempotency-Key header.',
  },
  /** Sign-up or profile: the address belongs to another account. */
  email_in_use: { status: 409, message: 'Email already in use' },
  /** Sign-up, reset or change: shorter than 8 characters or easy to guess. */
  password_too_weak: { status: 400, message: 'Password is too weak' },
  /** Login: one message whether the email or the password was wrong. */
  invalid_credentials: { status: 401, message: 'Invalid email or password' },
  /** A re-authentication (current password) did not match. */
  wrong_password: { status: 403, message: 'Your current password is not correct.' },
  /** Second factor or step-up: wrong, expired or already used code. */
  wrong_code: { status: 400, message: 'Wrong verification code. Please try again.' },
  /**
   * A passkey's answer was refused: replayed, for another site or user, a challenge expired
   * or spent, an unknown passkey, or an authenticator whose counter went back.
   */
  passkey_refused: {
    status: 400,
    message: 'Your passkey could not be checked. Please try again.',
  },
  /** The site is reached by an IP address: passkeys need its domain name (ADR 046). */
  passkeys_unavailable: {
    status: 409,
    message: 'Passkeys are not available on this installation.',
  },
  /** A login challenge, reset link or verification link that has expired or was used. */
  link_expired: {
    status: 400,
    message: 'This link has expired or was already used. Please ask for a new one.',
  },
  /** The account's email address is not verified yet and the action needs it. */
  email_not_verified: {
    status: 403,
    message: 'Please verify your email address first. We sent you a link.',
  },
  /** Two-factor is already on (enrol) or off (disable). */
  totp_state_conflict: {
    status: 409,
    message: 'Two-factor authentication is already set that way.',
  },
  /** No valid session. */
  unauthenticated: { status: 401, message: 'Please sign in to continue.' },
  /** Signed in, but the role does not allow this route. */
  forbidden: { status: 403, message: 'You do not have access to this.' },
  /**
   * Staff without an authenticator, where COFFER_STAFF_TWO_FACTOR requires one: every staff
   * route is closed to them until they set it up on their profile.
   */
  staff_two_factor_required: {
    status: 403,
    message: 'Set up two-factor authentication before using the back office.',
  },
  /**
   * Staff asking to turn their own two-factor off where COFFER_STAFF_TWO_FACTOR requires it:
   * the back office would close to them at their next request.
   */
  staff_two_factor_stays_on: {
    status: 403,
    message: 'Staff accounts here must keep two-factor authentication on.',
  },
  /**
   * The account's password was set by someone else (npm run create-admin): until its owner
   * changes it, only the password change, the session and sign-out answer.
   */
  password_change_required: {
    status: 403,
    message: 'Choose a new password first: this one was set when your account was created.',
  },
  /**
   * The operator published terms and privacy notice the customer has not accepted (new
   * ones since sign-up): until they do, only the session, the terms and their acceptance
   * answer. The web app shows the terms to accept.
   */
  terms_acceptance_required: {
    status: 403,
    message: 'Please read and accept the updated terms and privacy notice to continue.',
  },
  /** A data export's seven days are over: its file is gone, a new one can be asked for. */
  data_export_expired: {
    status: 410,
    message: 'This export has expired. Ask for a new one on your profile.',
  },
  /** The data export is still being built, or its build failed: nothing to download. */
  data_export_not_ready: {
    status: 409,
    message: 'Your export is not ready yet. We will email you when it is.',
  },
  /** Downloading an export needs the password again in this session, a few minutes before. */
  reauthentication_required: {
    status: 403,
    message: 'Please enter your password again to download your data.',
  },
  /** No such resource, or it belongs to someone else. */
  not_found: { status: 404, message: 'Not found.' },
  /** The same Idempotency-Key is still being processed by another request. */
  idempotency_in_progress: {
    status: 409,
    message: 'This request is already being processed. Please wait a moment.',
  },
  /** The thing is already in the state asked for (frozen, that level, decided). */
  state_conflict: { status: 409, message: 'Nothing to change: it is already in that state.' },
  /** Approval: the person who prepared a request cannot approve it. */
  own_request: { status: 403, message: 'A second admin must approve this: you prepared it.' },
  /** Approval: the checker is the request's subject, or was promoted by its maker. */
  not_eligible_checker: {
    status: 403,
    message: 'A different admin must approve this: you may not check this request.',
  },
  /** Approval: a money request for a staff member's wallet. */
  staff_wallet: { status: 403, message: 'Staff accounts cannot move money.' },
  /** Only the person who prepared a request may cancel it. */
  not_maker: { status: 403, message: 'Only the person who prepared this request can cancel it.' },
  /** Approve, reject or cancel of a request someone already decided. */
  already_decided: { status: 409, message: 'This request has already been decided.' },
  /** A staff member tried to change their own role or freeze themselves. */
  own_account: { status: 403, message: 'You cannot do this to your own account.' },
  /** The hold was already captured or released. */
  hold_not_active: { status: 409, message: 'This hold has already been settled.' },
  /** A wallet does not have enough available balance for the debit. */
  insufficient_funds: { status: 409, message: 'Insufficient balance for withdrawal' },
  /** The entry's lines are in different currencies that cannot be mixed here. */
  currency_mismatch: {
    status: 409,
    message: 'Both accounts must use the same currency.',
  },
  /**
   * Money out (Quick Pay, payout, bill) from a frozen account. The server sends the
   * message with the staff's reason filled in (see `frozenAccountMessage`).
   */
  /**
   * Sign-in to, or money into, an account its customer closed (ADR 050). Answered to a
   * sign-in only after the right password or passkey, so it tells a stranger nothing.
   */
  account_closed: {
    status: 403,
    message: 'This account is closed. To open it again or ask about it, contact the institution.',
  },
  /** Closing an account that still has something open; the answer lists each reason. */
  account_not_closable: {
    status: 409,
    message: 'Your account cannot be closed yet. Each reason below says what to do first.',
  },
  account_frozen: {
    status: 403,
    message: 'Transactions are disabled on your account. Contact support to have them re-enabled.',
  },
  /** The customer's level does not allow this kind of money movement. */
  level_too_low: {
    status: 403,
    message: 'Your account level is too low for this transaction. Please upgrade to level 2.',
  },
  /** Money out of a wallet whose currency has no limits configured and no default. */
  limits_not_configured: {
    status: 409,
    message: 'Sending money in this currency is not available yet. Contact support.',
  },
  /** Today's total for this kind of payment would pass the level's daily limit. */
  daily_limit_exceeded: {
    status: 409,
    message: 'This would go over your daily limit.',
  },
  /**
   * Quick Pay: the recipient cannot be paid, for whichever reason (unknown, other
   * currency, not a customer's wallet): one answer, so look-ups reveal nobody.
   */
  recipient_refused: {
    status: 404,
    message: recipientRefusedMessage,
  },
  /** A money movement that needs a step-up code came without one. */
  step_up_required: {
    status: 400,
    message: 'Enter the verification code to confirm.',
  },
  /** The wallet's currency has no loan terms (`COFFER_LOAN_TERMS`): no loans are offered in it. */
  loans_not_offered: {
    status: 409,
    message: 'Loans are not offered in your currency yet.',
  },
  /** A loan application or repayment amount outside what is allowed (eligibility, terms, payoff). */
  loan_amount_refused: { status: 400, message: 'Invalid amount' },
  /** A customer with a pending application applies again. */
  loan_pending_exists: {
    status: 409,
    message: 'You already have a loan application waiting for review.',
  },
  /** A loan is not in the state the action needs (disbursing a declined loan, repaying a repaid one). */
  loan_state: { status: 409, message: 'This loan cannot do that in its current state.' },
  /**
   * Staff approve or disburse a loan that, with what the customer already owes or was
   * approved for, passes the customer's loan eligibility (lowered since the application).
   */
  loan_above_eligibility: {
    status: 409,
    message: 'This loan would take the customer above the approved loan eligibility.',
  },
  /** The HTTP request could not be read (the server's parser refused it). */
  malformed_request: { status: 400, message: 'This request could not be read.' },
  /** The request did not arrive in full in time. */
  request_timeout: {
    status: 408,
    message: 'This request took too long to arrive. Please try again.',
  },
  /** The request's address and headers together pass the server's limit (16 KB). */
  request_header_too_large: {
    status: 431,
    message: 'This request’s address or headers are too long.',
  },
  /** The request body is larger than the route accepts. */
  payload_too_large: { status: 413, message: 'That is more data than this request accepts.' },
  /** The request body is not JSON (or not the type the route accepts). */
  unsupported_media_type: { status: 415, message: 'Send the request body as JSON.' },
  /** The same Idempotency-Key was used before with a different request. */
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was already used for a different request.',
  },
  /** Cards: the customer already has a card, or a request for one, open. */
  card_already_open: {
    status: 409,
    message: 'You already have a virtual card or a request for one.',
  },
  /** Cards: the fee changed between showing it and the customer's confirmation. */
  card_fee_changed: {
    status: 409,
    message: 'The card fee has changed. Please review it and confirm again.',
  },
  /** Issuing webhooks: the signature is missing, wrong, or its timestamp is stale. */
  signature_invalid: {
    status: 401,
    message: 'The request signature is missing, wrong or too old.',
  },
  /**
   * Issuing webhooks: the processor's id of an authorization or settlement was already used
   * for a different request (another amount, currency, merchant, card or settlement type).
   */
  processor_id_reused: {
    status: 409,
    message: 'This id was already used for a different request.',
  },
  /** Too many requests from this client or for this account. */
  rate_limited: { status: 429, message: 'Too many requests. Please try again later.' },
  /** Payees: the customer saved this very recipient, bill or destination already. */
  payee_exists: { status: 409, message: 'You have already saved this payee.' },
  /** Payees: the customer holds `payeesMax` payees already. */
  payee_limit_reached: {
    status: 409,
    message: 'You can save at most 200 payees. Delete one you no longer use first.',
  },
  /** Scheduled payments: the customer has `scheduledPaymentsMax` schedules already. */
  schedule_limit_reached: {
    status: 409,
    message: 'You can keep at most 50 scheduled payments. Cancel one you no longer need first.',
  },
  /** Scheduled payments: the schedule was cancelled, or ended, and cannot change any more. */
  schedule_not_editable: {
    status: 409,
    message: 'This scheduled payment was cancelled or has ended, so it cannot be changed.',
  },
  /** Login or second factor: too many failures for this account or client. */
  too_many_attempts: { status: 429, message: 'Too many attempts. Please try again later.' },
  /** Payment files: the uploaded file is refused; the message names the line and column. */
  file_refused: { status: 400, message: 'This file could not be imported.' },
  /** Payment files: this very file (by its SHA-256) was imported before. */
  file_already_imported: { status: 409, message: 'This file was already imported.' },
  /** Payment files: the institution's own bank account (COFFER_BANK_IBAN) is not set. */
  bank_account_not_set: {
    status: 409,
    message: 'Set the institution’s bank account (COFFER_BANK_IBAN) to use payment files.',
  },
  /** Exchange (ADR 051): the currency is not one the operator offers (COFFER_CURRENCIES). */
  currency_not_offered: { status: 400, message: 'This currency is not offered here.' },
  /** Exchange: the same currency on both sides. */
  same_currency: { status: 400, message: 'Choose two different currencies to exchange.' },
  /** A wallet in this currency is already open for the customer. */
  wallet_exists: { status: 409, message: 'You already have a wallet in this currency.' },
  /** Exchange: after conversion the amount is below the smallest unit of a currency. */
  amount_too_small: {
    status: 400,
    message: 'This amount is too small to exchange: it converts to less than the smallest unit.',
  },
  /** Exchange: the rate is missing, stale or invalid, so no quote can be given. */
  exchange_unavailable: {
    status: 409,
    message: 'Exchange is unavailable right now: we have no current rate. Please try again later.',
  },
  /** A quote past its 30 seconds. */
  quote_expired: { status: 409, message: 'This quote has expired. Please ask for a new one.' },
  /** A quote that was already accepted: it executes once. */
  quote_used: { status: 409, message: 'This quote was already accepted.' },
  /** A bug on our side; details are in the server log, never in the response. */
  internal: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  /** Starting up or shutting down. */
  unavailable: { status: 503, message: 'Coffer is restarting. Please try again shortly.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCodes;

export const errorCodeSchema = z.enum(Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]]);

/** The one JSON shape of every API error. */
export const errorBodySchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
