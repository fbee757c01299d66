import { z } from './zod.ts';

/** PRODUCT.md section 5: where a withdrawal can go. */
export const payoutMethods = ['bank', 'paypal', 'cashapp', 'crypto'] as const;
export type PayoutMethod = (typeof payoutMethods)[number];

export const payoutMethodLabels: Record<PayoutMethod, string> = {
  bank: 'Bank',
  paypal: 'PayPal',
  cashapp: 'CashApp',
  crypto: 'Crypto',
};

export const cryptoCoins = ['BTC', 'ETH', 'USDT'] as const;
export type CryptoCoin = (typeof cryptoCoins)[number];

/** USDT is paid out as an ERC-20 token, to an Ethereum address. */
export const cryptoCoinLabels: Record<CryptoCoin, string> = {
  BTC: 'Bitcoin (BTC)',
  ETH: 'Ether (ETH)',
  USDT: 'Tether (USDT, ERC-20)',
};

/**
 * Where a payout goes, as stored and answered. Plain strings: what was valid when it was
 * requested stays readable even if the rules for new requests tighten.
 */
export const payoutDestinationSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('bank'),
    holderName: z.string(),
    bankName: z.string(),
    accountNumber: z.string(),
  }),
  z.object({ method: z.literal('paypal'), email: z.string(), holderName: z.string() }),
  z.object({ method: z.literal('cashapp'), emailOrCashtag: z.string(), holderName: z.string() }),
  z.object({ method: z.literal('crypto'), coin: z.enum(cryptoCoins), address: z.string() }),
]);
export type PayoutDestination = z.infer<typeof payoutDestinationSchema>;

/** One line naming a destination, for confirmations, lists and the ledger memo. */
export function describePayoutDestination(destination: PayoutDestination): string {
  switch (destination.method) {
    case 'bank':
      return `${destination.bankName} account ending ${destination.accountNumber.slice(-4)}`;
    case 'paypal':
      return `PayPal ${destination.email}`;
    case 'cashapp':
      return `CashApp ${destination.emailOrCashtag}`;
    case 'crypto':
      return `${destination.coin} address ${destination.address.slice(0, 8)}…${destination.address.slice(-6)}`;
  }
}
