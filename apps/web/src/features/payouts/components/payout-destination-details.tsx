import type { PayoutDestination } from '@coffer/contracts/payouts';
import { useLingui } from '@lingui/react';
import { Stack, Text } from '@mantine/core';
import { cryptoCoinLabels, payoutMethodLabels } from '../labels.ts';

/** Every line staff need to send the money, as the customer entered it. */
function detailLines(
  destination: PayoutDestination,
  coinLabel: (coin: keyof typeof cryptoCoinLabels) => string,
): { name: string; text: string }[] {
  switch (destination.method) {
    case 'bank':
      return [
        { name: 'holder', text: destination.holderName },
        { name: 'bank', text: destination.bankName },
        { name: 'account', text: destination.accountNumber },
      ];
    case 'paypal':
      return [
        { name: 'holder', text: destination.holderName },
        { name: 'email', text: destination.email },
      ];
    case 'cashapp':
      return [
        { name: 'holder', text: destination.holderName },
        { name: 'account', text: destination.emailOrCashtag },
      ];
    case 'crypto':
      return [
        { name: 'coin', text: coinLabel(destination.coin) },
        { name: 'address', text: destination.address },
      ];
  }
}

export function PayoutDestinationDetails({ destination }: { destination: PayoutDestination }) {
  const { i18n } = useLingui();
  const lines = detailLines(destination, (coin) => i18n._(cryptoCoinLabels[coin]));
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {i18n._(payoutMethodLabels[destination.method])}
      </Text>
      {lines.map((line) => (
        <Text key={line.name} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {/* Names, IBANs and addresses keep their own direction inside an Arabic page. */}
          <bdi>{line.text}</bdi>
        </Text>
      ))}
    </Stack>
  );
}
