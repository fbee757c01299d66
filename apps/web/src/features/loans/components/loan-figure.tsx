import { Stack, Text } from '@mantine/core';

/** A labelled figure of a loan (an amount, a rate, a count). */
export function LoanFigure({
  label,
  value,
  isAlert = false,
}: {
  label: string;
  value: string;
  isAlert?: boolean;
}) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} c={isAlert ? 'red.8' : undefined}>
        {value}
      </Text>
    </Stack>
  );
}
