import type { BillCategory } from '@coffer/contracts/bills';
import type { PayoutDestination } from '@coffer/contracts/payout-destinations';
import type { Payee, PayeeKind } from '@coffer/contracts/saved-payees';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';

// Type-only imports from contracts: the picker above the payment forms loads this module.

export const payeeKindMessages: Record<PayeeKind, MessageDescriptor> = {
  coffer: msg`Coffer customer`,
  bill: msg`Bill`,
  payout: msg`Withdrawal destination`,
};

export const billCategoryMessages: Record<BillCategory, MessageDescriptor> = {
  electricity: msg`Electricity`,
  water: msg`Water`,
  internet: msg`Internet`,
  phone: msg`Phone`,
  rent: msg`Rent`,
};

/** The method's name; PayPal and CashApp are names, the same in every language. */
export const payoutMethodMessages: Record<PayoutDestination['method'], MessageDescriptor | string> =
  {
    bank: msg`Bank`,
    paypal: 'PayPal',
    cashapp: 'CashApp',
    crypto: msg`Crypto`,
  };

function describeBill(category: BillCategory, reference: string, i18n: I18n): string {
  // Whole phrases, not "{category} bill": the bill's name and "bill" make one word in German.
  switch (category) {
    case 'electricity':
      return i18n._(msg`Electricity bill, customer number ${reference}`);
    case 'water':
      return i18n._(msg`Water bill, customer number ${reference}`);
    case 'internet':
      return i18n._(msg`Internet bill, customer number ${reference}`);
    case 'phone':
      return i18n._(msg`Phone bill, customer number ${reference}`);
    case 'rent':
      return i18n._(msg`Rent bill, customer number ${reference}`);
  }
}

function describeDestination(destination: PayoutDestination, i18n: I18n): string {
  switch (destination.method) {
    case 'bank': {
      const { bankName } = destination;
      const lastDigits = destination.accountNumber.slice(-4);
      return i18n._(msg`${bankName} account ending ${lastDigits}`);
    }
    case 'paypal':
      return `PayPal ${destination.email}`;
    case 'cashapp':
      return `CashApp ${destination.emailOrCashtag}`;
    case 'crypto': {
      const { coin } = destination;
      const start = destination.address.slice(0, 8);
      const end = destination.address.slice(-6);
      return i18n._(msg`${coin} address ${start}…${end}`);
    }
  }
}

/**
 * What a payee pays, in the page's language: "Coffer customer 1234567890", "Electricity
 * bill, customer number 12345", "Acme Bank account ending 6789".
 */
export function useDescribePayeeTarget(): (target: Payee['target']) => string {
  const { i18n } = useLingui();
  return (target) => {
    switch (target.kind) {
      case 'coffer': {
        const { recipient } = target;
        return i18n._(msg`Coffer customer ${recipient}`);
      }
      case 'bill':
        return describeBill(target.category, target.billerReference, i18n);
      case 'payout':
        return describeDestination(target.destination, i18n);
    }
  };
}

/** A label that is a message or a name, in the page's language. */
export function labelText(label: MessageDescriptor | string, i18n: I18n): string {
  return typeof label === 'string' ? label : i18n._(label);
}
