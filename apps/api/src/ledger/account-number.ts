import { randomInt } from 'node:crypto';
import { checkDigitFor } from '@coffer/contracts/ledger';

/** Nine random digits (no leading zero) and a Luhn check digit. */
export function generateAccountNumber(): string {
  const payload = String(randomInt(100_000_000, 1_000_000_000));
  return payload + checkDigitFor(payload);
}
