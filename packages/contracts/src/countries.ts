import { countries } from 'countries-list';
import { type CurrencyCode, isCurrencyCode, toCurrencyCode } from './currencies.ts';

export type Country = { code: string; name: string; currency: CurrencyCode };

export const defaultCountryCode = 'US';
const defaultCurrency = toCurrencyCode('USD');
const englishCollator = new Intl.Collator('en');

/**
 * Every country and territory from the maintained `countries-list` package (about 250),
 * sorted by name, with the wallet currency it fixes: the first of its ISO 4217 currencies
 * that has minor digits, else USD (Antarctica has none, for instance).
 */
export const countryList: readonly Country[] = Object.entries(countries)
  .map(([code, country]) => {
    const currency = country.currency.find((candidate) => isCurrencyCode(candidate));
    return {
      code,
      name: country.name,
      currency: currency ? toCurrencyCode(currency) : defaultCurrency,
    };
  })
  // One collator for the whole sort: localeCompare builds one per comparison.
  .sort((a, b) => englishCollator.compare(a.name, b.name));

const countryByCode = new Map(countryList.map((country) => [country.code, country]));

export function findCountry(code: string): Country | undefined {
  return countryByCode.get(code);
}
