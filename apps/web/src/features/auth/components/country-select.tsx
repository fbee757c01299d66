import { countryList, findCountry } from '@coffer/contracts/countries';
import { useLingui } from '@lingui/react/macro';
import { Select, type SelectProps } from '@mantine/core';
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
 * The country select of sign-up: about 250 countries and territories, searchable by name or
 * currency, saying which wallet currency the choice fixes.
 */
export function CountrySelect(props: Omit<SelectProps, 'data'> & { value: string }) {
  const { t, i18n } = useLingui();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the names follow the language in use.
  const countryOptions = useMemo(() => countryOptionsIn(intlLocale()), [i18n.locale]);
  const currency = findCountry(props.value)?.currency;
  return (
    <Select
      label={t`Country`}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t`No country matches`}
      maxDropdownHeight={280}
      description={
        currency
          ? t`Your wallet will be in ${currency}. The currency cannot be changed later.`
          : t`Your country sets the currency of your wallet.`
      }
      {...props}
      data={countryOptions}
    />
  );
}
