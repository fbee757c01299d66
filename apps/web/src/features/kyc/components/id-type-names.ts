import type { KycIdType } from '@coffer/contracts/kyc';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** The identity documents Coffer accepts, as the page's language names them. */
export const idTypeNames: Record<KycIdType, MessageDescriptor> = {
  passport: msg`Passport`,
  driver_license: msg`Driver's license`,
  national_id: msg`National ID card`,
};
