import { countryList, findCountry } from '@coffer/contracts/countries';
import { Select, type SelectProps } from '@mantine/core';

const countryOptions = countryList.map((country) => ({
  value: country.code,
  label: `${country.name} (${country.currency})`,
}));

/**
 * The country select of sign-up: about 250 countries and territories, searchable by name or
 * currency, saying which wallet currency the choice fixes.
 */
export function CountrySelect(props: Omit<SelectProps, 'data'> & { value: string }) {
  const currency = findCountry(props.value)?.currency;
  return (
    <Select
      label="Country"
      searchable
      allowDeselect={false}
      nothingFoundMessage="No country matches"
      maxDropdownHeight={280}
      description={
        currency
          ? `Your wallet will be in ${currency}. The currency cannot be changed later.`
          : 'Your country sets the currency of your wallet.'
      }
      {...props}
      data={countryOptions}
    />
  );
}
