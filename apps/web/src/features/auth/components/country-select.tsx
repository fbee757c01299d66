import { countryList, findCountry } from '@coffer/contracts/countries';
import { useLingui } from '@lingui/react/macro';
import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { intlLocale } from '../../../lib/i18n.ts';

/**
 * The countries in the page's language (Intl knows every region's name in it), sorted as
 * that language sorts; a code Intl does not know keeps the contract's English name.
 */
function countryOptionsIn(locale: string) {
  const regionNames = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  const collator = new Intl.Collator(locale);
  return countryList
    .map((country) => ({
      value: country.code,
      label: `${regionNames.of(country.code) ?? country.name} (${country.currency})`,
    }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/**
 * The country select of sign-up: about 250 countries and territories, saying which wallet
 * currency the choice fixes. The browser's own select (docs/decisions/056): it works on
 * the server-rendered page before the app has started, jumps to a country by its first
 * letters, opens the platform's picker on a phone, and leaves Mantine's Combobox, Popover
 * and Floating UI out of the page.
 */
export function CountrySelect(props: Omit<NativeSelectProps, 'data'> & { value: string }) {
  const { t, i18n } = useLingui();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names follow the language in use.
  const countryOptions = useMemo(() => countryOptionsIn(intlLocale()), [i18n.locale]);
  const currency = findCountry(props.value)?.currency;
  return (
    <NativeSelect
      label={t`Country`}
      description={
        currency
          ? t`Your wallet will be in ${currency}. The currency cannot be changed later.`
          : t`Your country sets the currency of your wallet.`
      }
      {...props}
    >
      {countryOptions.map((option) => (
        // The server's Intl and the browser's may name a region differently (their CLDR
        // versions): the server's name stays until the next render, without a mismatch.
        <option key={option.value} value={option.value} suppressHydrationWarning>
          {option.label}
        </option>
      ))}
    </NativeSelect>
  );
}
