/// <reference path="./multicoin-address-validator.d.ts" />
import {
  type CryptoCoin,
  invalidCryptoAddressMessage,
  payoutBodySchema,
} from '@coffer/contracts/payouts';
import WAValidator from 'multicoin-address-validator';
import { z } from 'zod/mini';

// The library's name for the chain each coin is paid out on: USDT goes out as an ERC-20
// token, to an Ethereum address.
const chainOf: Record<CryptoCoin, 'BTC' | 'ETH'> = { BTC: 'BTC', ETH: 'ETH', USDT: 'ETH' };

/** Checks the address's own checksum (base58check, bech32 or EIP-55) on the main network. */
export function isValidCryptoAddress(coin: CryptoCoin, address: string): boolean {
  return WAValidator.validate(address, chainOf[coin], 'prod');
}

/**
 * The contract's payout request, plus the address checksums. The web app checks an
 * address's form with the same contract; the checksums are checked here only, because the
 * validator library does not run in the browser without Node globals.
 */
export const payoutRequestSchema = payoutBodySchema.check(
  z.superRefine((body, context) => {
    if (body.method === 'crypto' && !isValidCryptoAddress(body.coin, body.address)) {
      context.addIssue({
        code: 'custom',
        path: ['address'],
        message: invalidCryptoAddressMessage(body.coin),
      });
    }
  }),
);
