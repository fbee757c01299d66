import { composeIBAN, getCountrySpecifications, isValidBBAN, isValidIBAN } from 'ibantools';

/**
 * How accounts get IBANs (`COFFER_IBAN`, "DE:37040044"): the country and the bank code
 * the institution was given; an account's BBAN is the bank code and its 10-digit number,
 * zero-padded to the country's length, and ibantools computes the check digits.
 */
export type IbanScheme = { countryCode: string; bankCode: string; accountDigits: number };

export class IbanSchemeError extends Error {
  override name = 'IbanSchemeError';
}

const accountNumberLength = 10;

/** The BBAN of an account number under `scheme`. */
function bbanOf(scheme: IbanScheme, accountNumber: string): string {
  return scheme.bankCode + accountNumber.padStart(scheme.accountDigits, '0');
}

/** Reads `COFFER_IBAN`; a value that cannot give every account a valid IBAN throws why. */
export function parseIbanScheme(text: string): IbanScheme {
  const match = /^([A-Z]{2}):([A-Z0-9]{1,30})$/.exec(text.trim().toUpperCase());
  if (!match) throw new IbanSchemeError('must be a country and a bank code, like DE:37040044');
  const [, countryCode = '', bankCode = ''] = match;
  const specification = getCountrySpecifications()[countryCode];
  if (!specification?.chars || !specification.bban_regexp) {
    throw new IbanSchemeError(`${countryCode} has no IBANs`);
  }
  const accountDigits = specification.chars - 4 - bankCode.length;
  if (accountDigits < accountNumberLength) {
    throw new IbanSchemeError(
      `a ${countryCode} account number has ${specification.chars - 4 - bankCode.length} characters after the bank code ${bankCode}; Coffer's have ${accountNumberLength} digits`,
    );
  }
  const scheme = { countryCode, bankCode, accountDigits };
  // Countries whose BBAN holds letters where the number goes, or national check digits,
  // refuse these; the bank code's own form is checked with them.
  for (const sample of ['0000000000', '1234567897']) {
    if (!isValidBBAN(bbanOf(scheme, sample), countryCode)) {
      throw new IbanSchemeError(
        `${bankCode} and a 10-digit account number do not make a ${countryCode} account (${specification.bban_regexp})`,
      );
    }
  }
  return scheme;
}

/** The account's IBAN, in its electronic form (no spaces). */
export function accountIban(scheme: IbanScheme, accountNumber: string): string {
  const iban = composeIBAN({
    countryCode: scheme.countryCode,
    bban: bbanOf(scheme, accountNumber),
  });
  if (!iban || !isValidIBAN(iban)) throw new Error(`no IBAN for account ${accountNumber}`);
  return iban;
}
