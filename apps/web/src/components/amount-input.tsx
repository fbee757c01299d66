import { Text, TextInput, type TextInputProps } from '@mantine/core';

/** An amount a person types: a decimal keyboard, the currency's code beside it, required. */
export function AmountInput({ currency, ...props }: TextInputProps & { currency: string }) {
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      required
      maxLength={40}
      rightSection={
        <Text size="sm" c="dimmed">
          {currency}
        </Text>
      }
      rightSectionWidth={56}
      {...props}
    />
  );
}
