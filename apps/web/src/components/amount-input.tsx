import { Text, TextInput, type TextInputProps } from '@mantine/core';
import { minorUnitStep } from '../lib/money.ts';

/**
 * An amount field in a wallet's currency: a number input whose step is the currency's
 * minor unit, with the currency code inside it on the right.
 */
export function AmountInput({ currency, ...props }: TextInputProps & { currency: string }) {
  return (
    <TextInput
      label="Amount"
      type="number"
      inputMode="decimal"
      required
      min={minorUnitStep(currency)}
      step={minorUnitStep(currency)}
      rightSection={
        <Text size="sm" c="dimmed">
          {currency}
        </Text>
      }
      rightSectionWidth={56}
      // A scroll wheel over a focused number field would change the amount unseen.
      onWheel={(event) => event.currentTarget.blur()}
      {...props}
    />
  );
}
