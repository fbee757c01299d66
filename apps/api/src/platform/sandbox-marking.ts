/**
 * The words every email, statement and export of a sandbox carries, so that none of them can
 * pass for a real bank's. Nothing but sandbox mode decides it: no setting, site file or
 * institution name turns it off while sandbox mode is on. In the reader's language (ADR 055).
 */
export const sandboxMarkingMessage = 'SANDBOX — NOT A REAL ACCOUNT';

/** What a sandbox's email says of itself under the marking. */
export const sandboxEmailMessage =
  'This email comes from a test installation of Coffer. No real money or account is involved.';
