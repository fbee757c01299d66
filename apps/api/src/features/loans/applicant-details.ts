import type { ApplicantDetails } from '@coffer/contracts/loans';
import type { Queryable } from '../../db/client.ts';
import { applicantDetailsOf } from './queries.ts';

/**
 * What the application form starts from, so the customer does not type again what they
 * already gave (issue #31 item 2); they may correct it in the form. The verified legal name
 * (or the one a verification under review gives), the profile's phone and the
 * verification's address come first; the last application's details fill what those lack.
 */
export async function applicantDetails(db: Queryable, userId: string): Promise<ApplicantDetails> {
  const known = await applicantDetailsOf(db, userId);
  return {
    fullName:
      known?.verified_legal_name || known?.submitted_legal_name || known?.last_full_name || '',
    phone: known?.profile_phone || known?.last_phone || '',
    address: known?.verified_address || known?.last_address || '',
  };
}
