import type { BillCategory } from '@coffer/contracts/bills';
import type { Payee } from '@coffer/contracts/saved-payees';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * A payee as the "Pay to" choice names it: its nickname and what it pays, as one phrase of
 * the page's language (the contract's describePayeeTarget is English).
 */
export function payeeLine({ nickname, target }: Payee): MessageDescriptor | string {
  switch (target.kind) {
    case 'coffer': {
      const { recipient } = target;
      return msg`${nickname} — Coffer customer ${recipient}`;
    }
    case 'bill':
      return billLine(nickname, target.category, target.billerReference);
    case 'payout':
      return destinationLine(nickname, target.destination);
  }
}

/** A whole phrase per kind of bill: the kind's words change with the language's grammar. */
function billLine(
  nickname: string,
  category: BillCategory,
  billerReference: string,
): MessageDescriptor {
  switch (category) {
    case 'electricity':
      return msg`${nickname} — Electricity bill, customer number ${billerReference}`;
    case 'water':
      return msg`${nickname} — Water bill, customer number ${billerReference}`;
    case 'internet':
      return msg`${nickname} — Internet bill, customer number ${billerReference}`;
    case 'phone':
      return msg`${nickname} — Phone bill, customer number ${billerReference}`;
    case 'rent':
      return msg`${nickname} — Rent bill, customer number ${billerReference}`;
  }
}

function destinationLine(
  nickname: string,
  destination: Extract<Payee['target'], { kind: 'payout' }>['destination'],
): MessageDescriptor | string {
  switch (destination.method) {
    case 'bank': {
      const { bankName } = destination;
      const lastDigits = destination.accountNumber.slice(-4);
      return msg`${nickname} — ${bankName} account ending ${lastDigits}`;
    }
    case 'crypto': {
      const { coin } = destination;
      const shortAddress = `${destination.address.slice(0, 8)}…${destination.address.slice(-6)}`;
      return msg`${nickname} — ${coin} address ${shortAddress}`;
    }
    // Names and addresses only: nothing to translate.
    case 'paypal':
      return `${nickname} — PayPal ${destination.email}`;
    case 'cashapp':
      return `${nickname} — CashApp ${destination.emailOrCashtag}`;
  }
}
