import { acceptTermsMessage, type Terms, termsChangedMessage } from '@coffer/contracts/terms';
import type { Database, Queryable } from '../../db/client.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { recordTermsAcceptance } from './queries.ts';

/**
 * The version a person accepted must be the one published now: a missing one is refused
 * beside the checkbox, an older one (the terms changed while the page was open) too, with
 * words that say so. Without published terms there is nothing to accept.
 */
export function refuseUnlessCurrentTerms(
  terms: Terms | null,
  acceptedVersion: string | undefined,
  field: string,
): void {
  if (!terms) return;
  if (!acceptedVersion) {
    throw new AppError('validation_failed', { fields: { [field]: acceptTermsMessage } });
  }
  if (acceptedVersion !== terms.version) {
    throw new AppError('validation_failed', { fields: { [field]: termsChangedMessage } });
  }
}

/** Who accepted which version, over which one (null: none before), from where. */
type Acceptance = {
  userId: string;
  version: string;
  previousVersion: string | null;
  ipAddress: string;
};

/** The audit event of an acceptance, in the transaction that records it. */
export function auditTermsAccepted(tx: Queryable, acceptance: Acceptance): Promise<void> {
  return recordAudit(tx, {
    action: 'terms_accepted',
    actorUserId: acceptance.userId,
    subjectUserId: acceptance.userId,
    before:
      acceptance.previousVersion === null
        ? undefined
        : { termsVersion: acceptance.previousVersion },
    after: { termsVersion: acceptance.version },
    ipAddress: acceptance.ipAddress,
  });
}

/**
 * A signed-in customer accepts the current terms (after a new version was published, or
 * when terms appeared after they signed up). Accepting the version already accepted is
 * answered the same and recorded once.
 */
export async function acceptTerms(
  db: Database,
  terms: Terms | null,
  acceptance: Acceptance,
): Promise<void> {
  refuseUnlessCurrentTerms(terms, acceptance.version, 'version');
  if (!terms) throw new AppError('not_found', { message: 'There are no terms to accept.' });
  await db.transaction(async (tx) => {
    const recorded = await recordTermsAcceptance(tx, acceptance.userId, acceptance.version);
    if (recorded) await auditTermsAccepted(tx, acceptance);
  });
}
