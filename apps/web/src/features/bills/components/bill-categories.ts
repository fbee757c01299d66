import type { BillCategory } from '@coffer/contracts/bills';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** What each kind of bill is called on the page. */
export const billCategoryLabels: Record<BillCategory, MessageDescriptor> = {
  electricity: msg`Electricity`,
  water: msg`Water`,
  internet: msg`Internet`,
  phone: msg`Phone`,
  rent: msg`Rent`,
};
