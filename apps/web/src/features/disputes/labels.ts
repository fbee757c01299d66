import type { DisputeProblemType, DisputeStatus } from '@coffer/contracts/disputes';
import type { DisputeKind, disputeProblemChoices } from '@coffer/contracts/disputes-filing';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// The dispute words the contracts name in English, as messages of the page's language.

export const disputeStatusLabels: Record<DisputeStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  investigating: msg`Investigating`,
  resolved: msg`Resolved`,
  rejected: msg`Rejected`,
};

export const disputeProblemTypeLabels: Record<DisputeProblemType, MessageDescriptor> = {
  withdrawal_not_working: msg`Withdrawal not working`,
  deposit_not_working: msg`Deposit not working`,
  unauthorized_transaction: msg`Unauthorized transaction`,
  charged_twice: msg`Charged twice`,
  goods_not_received: msg`Goods or service not received`,
  wrong_amount: msg`Wrong amount`,
  other: msg`Other`,
};

type ProblemChoices = {
  [Kind in DisputeKind]: Record<keyof (typeof disputeProblemChoices)[Kind], MessageDescriptor>;
};

/** The problems each kind offers, in the customer's words for that kind of line. */
export const problemChoiceLabels: ProblemChoices = {
  general: {
    withdrawal_not_working: msg`Withdrawal not working`,
    deposit_not_working: msg`Deposit not working`,
    unauthorized_transaction: msg`Unauthorized transaction`,
    other: msg`Other`,
  },
  card: {
    unauthorized_transaction: msg`I didn't make this purchase`,
    charged_twice: msg`I was charged twice`,
    goods_not_received: msg`I didn't receive the goods or service`,
    wrong_amount: msg`The amount is wrong`,
    other: msg`Something else`,
  },
  transfer: {
    unauthorized_transaction: msg`I didn't make this payment`,
    wrong_amount: msg`The amount is wrong`,
    other: msg`Something else`,
  },
  bill: {
    unauthorized_transaction: msg`I didn't pay this bill`,
    charged_twice: msg`I was charged twice`,
    wrong_amount: msg`The amount is wrong`,
    other: msg`Something else`,
  },
  deposit: {
    deposit_not_working: msg`Part of the deposit is missing`,
    wrong_amount: msg`The amount is wrong`,
    other: msg`Something else`,
  },
  withdrawal: {
    withdrawal_not_working: msg`The money did not arrive`,
    unauthorized_transaction: msg`I didn't make this withdrawal`,
    wrong_amount: msg`The amount is wrong`,
    other: msg`Something else`,
  },
  account: {
    unauthorized_transaction: msg`I don't recognise this`,
    wrong_amount: msg`The amount is wrong`,
    other: msg`Something else`,
  },
};
