import type {
  CryptoCoin,
  PayoutDestination,
  PayoutMethod,
  PayoutStatus,
} from '@coffer/contracts/payouts';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

// The payout words the contracts name in English, as messages of the page's language.

export const payoutMethodLabels: Record<PayoutMethod, MessageDescriptor> = {
  bank: msg`Bank`,
  paypal: msg`PayPal`,
  cashapp: msg`CashApp`,
  crypto: msg`Crypto`,
};

export const cryptoCoinLabels: Record<CryptoCoin, MessageDescriptor> = {
  BTC: msg`Bitcoin (BTC)`,
  ETH: msg`Ether (ETH)`,
  USDT: msg`Tether (USDT, ERC-20)`,
};

/** The customer sees a sent payout as completed (PRODUCT.md). */
export const customerPayoutStatusLabels: Record<PayoutStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  sent: msg`Completed`,
  rejected: msg`Rejected`,
};

/** Staff call a sent payout what it is. */
export const staffPayoutStatusLabels: Record<PayoutStatus, MessageDescriptor> = {
  pending: msg`Pending`,
  sent: msg`Sent`,
  rejected: msg`Rejected`,
};

/** One line naming a destination, as the contract's describePayoutDestination reads in English. */
export function payoutDestinationLine(destination: PayoutDestination): MessageDescriptor {
  switch (destination.method) {
    case 'bank': {
      const { bankName } = destination;
      const lastDigits = destination.accountNumber.slice(-4);
      return msg`${bankName} account ending ${lastDigits}`;
    }
    case 'paypal': {
      const { email } = destination;
      return msg`PayPal ${email}`;
    }
    case 'cashapp': {
      const { emailOrCashtag } = destination;
      return msg`CashApp ${emailOrCashtag}`;
    }
    case 'crypto': {
      const { coin } = destination;
      const shortAddress = `${destination.address.slice(0, 8)}…${destination.address.slice(-6)}`;
      return msg`${coin} address ${shortAddress}`;
    }
  }
}
