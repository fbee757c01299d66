/**
 * The words every email, statement and export of a sandbox carries, so that none of them can
 * pass for a real bank's. Nothing but sandbox mode decides it: no setting, site file or
 * institution name turns it off while sandbox mode is on.
 */
export const sandboxMarking = 'SANDBOX — NOT A REAL ACCOUNT';
