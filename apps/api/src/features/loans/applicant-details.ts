import type { ApplicantDetails } from '@coffer/contracts/loans';
import type { Queryable } from '../../db/client.ts';
import { applicantDetailsOf } from './queries.ts';

/**
 * What the application form starts from, so the customer does not type again what they
 * already gave (issue #31 item 2); they may correct it in the form. The profile's phone
 * and the verification's address come first, the last application's details fill what
 * those lack. The full name has no other source yet: when identity verification records a
 * verified legal name (issue #31 item 7), it goes first here, and only here.
 */
export async function applicantDetails(db: Queryable, userId: string): Promise<ApplicantDetails> {
  const known = await applicantDetailsOf(db, userId);
  return {
    fullName: known?.last_full_name ?? '',
    phone: known?.profile_phone || known?.last_phone || '',
    address: known?.verified_address || known?.last_address || '',
  };
}
