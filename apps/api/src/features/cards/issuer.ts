import { randomInt } from 'node:crypto';
import type { Database } from '../../db/client.ts';
import { randomToken } from '../../platform/crypto.ts';

/** What an issuer gives back for a new card: all Coffer keeps of it. */
export type IssuedCard = {
  /** The issuer's name for the card; authorizations arrive with it. */
  token: string;
  lastFour: string;
  expiryMonth: number;
  expiryYear: number;
};

/**
 * The seam to a card issuing processor (ADR 016). A real processor plugs in here without
 * touching the feature. Every call is idempotent at the issuer: `createCard` with the same
 * reference returns the same card, and freezing a frozen card is no change.
 */
export type CardIssuer = {
  createCard(request: { reference: string; holderName: string }): Promise<IssuedCard>;
  freezeCard(token: string): Promise<void>;
  unfreezeCard(token: string): Promise<void>;
  closeCard(token: string): Promise<void>;
};

/**
 * The sandbox's numbers start with this BIN: a 9 is a national assignment under ISO/IEC
 * 7812, outside every card network's ranges, so no sandbox number is anybody's real card.
 */
export const sandboxBin = '999999';
const cardNumberLength = 16;
const cardValidityYears = 3;

/** The Luhn check digit that makes `digits` + it pass the Luhn check. */
export function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    // Counting from the right of the full number, the digit next to the check digit doubles.
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

export function passesLuhn(number: string): boolean {
  return /^\d+$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/** A random Luhn-valid number in the sandbox BIN. */
export function sandboxCardNumber(): string {
  let body = sandboxBin;
  while (body.length < cardNumberLength - 1) body += String(randomInt(10));
  return body + luhnCheckDigit(body);
}

const numberAttemptsMax = 10;

/**
 * The built-in issuer: it keeps its cards (full number, security code) in its own table,
 * as a processor would keep them on its side, and hands Coffer only the token, last four
 * and expiry. It writes outside any Coffer transaction, as a remote issuer would.
 */
export function createSandboxIssuer(db: Database): CardIssuer {
  async function setStatus(token: string, status: 'active' | 'frozen' | 'closed') {
    await db.query(
      "UPDATE sandbox_issuer_cards SET status = $2 WHERE token = $1 AND status <> 'closed'",
      [token, status],
    );
  }
  return {
    async createCard({ reference, holderName }) {
      const now = new Date();
      const expiryMonth = now.getUTCMonth() + 1;
      const expiryYear = now.getUTCFullYear() + cardValidityYears;
      for (let attempt = 0; attempt < numberAttemptsMax; attempt += 1) {
        // ON CONFLICT on either unique column: the same reference returns its card below;
        // a number already dealt (one in 10^9) is dealt again.
        await db.query(
          `INSERT INTO sandbox_issuer_cards (token, reference, number, security_code, expiry_month,
                                             expiry_year, holder_name)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [
            `sandbox_card_${randomToken()}`,
            reference,
            sandboxCardNumber(),
            String(randomInt(1000)).padStart(3, '0'),
            expiryMonth,
            expiryYear,
            holderName,
          ],
        );
        const found = await db.query<{
          token: string;
          number: string;
          expiry_month: number;
          expiry_year: number;
        }>(
          'SELECT token, number, expiry_month, expiry_year FROM sandbox_issuer_cards WHERE reference = $1',
          [reference],
        );
        const card = found.rows[0];
        if (card) {
          return {
            token: card.token,
            lastFour: card.number.slice(-4),
            expiryMonth: card.expiry_month,
            expiryYear: card.expiry_year,
          };
        }
      }
      throw new Error('the sandbox issuer found no free card number');
    },
    freezeCard: (token) => setStatus(token, 'frozen'),
    unfreezeCard: (token) => setStatus(token, 'active'),
    closeCard: (token) => setStatus(token, 'closed'),
  };
}
