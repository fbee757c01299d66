import type { Terms } from '@coffer/contracts/terms';

/**
 * What a sandbox shows where the operator's site file has no `terms`: a sample that says it
 * is one, so sign-up and the acceptance page can be tried from a fresh clone. Outside the
 * sandbox nothing stands in: without the operator's own texts, nothing is asked.
 */
export const sandboxSampleTerms: Terms = {
  version: 'sandbox-sample-1',
  termsOfService: `SAMPLE TERMS OF SERVICE: this is a sandbox, not a real account.

These sample terms stand in for the terms of the institution that runs Coffer. An operator publishes their own in the site file (COFFER_SITE_FILE, "terms"), with a version; when the version changes, every customer is asked to accept the new terms at their next visit.

1. Your wallet. You hold one wallet in the currency of your country. Its balance changes only through entries in the institution's double-entry ledger, each of which you can see in your transactions.

2. Fees. Any fee is shown before you confirm and appears as its own line in your transactions. Identity verification, disputes and support are free.

3. Your security. Keep your password and your authenticator to yourself. Staff will never ask you for a code.

4. Staff actions. Every action staff take on your account is recorded, and you can see the ones that affect you, with the reason, on your profile.`,
  privacyNotice: `SAMPLE PRIVACY NOTICE: this is a sandbox, not a real account.

This sample stands in for the institution's own privacy notice.

What we keep: your username, email address, phone number and country; your transactions; the identity documents you upload for verification (encrypted, and deleted after the retention period); the devices and addresses you sign in from.

Why: to run your wallet, to meet the law on identifying customers, to keep your account safe, and to answer your disputes and messages.

Who sees it: staff of the institution who serve you, each look at an identity document recorded in the audit log. Nothing is sold or shared for advertising.`,
};
