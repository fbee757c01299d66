import type { QueueName } from '@coffer/contracts/queues';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Each work queue as staff read its name, in the page's language (the staff home, the reports). */
export const queueLabels: Record<QueueName, MessageDescriptor> = {
  kyc: msg`KYC`,
  payouts: msg`Payouts`,
  loans: msg`Loans`,
  cards: msg`Cards`,
  deposits: msg`Deposits`,
  disputes: msg`Disputes`,
  support: msg`Support`,
};
