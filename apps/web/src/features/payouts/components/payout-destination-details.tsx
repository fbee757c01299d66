import {
  cryptoCoinLabels,
  type PayoutDestination,
  payoutMethodLabels,
} from '@coffer/contracts/payouts';
import { Stack, Text } from '@mantine/core';

/** Every line staff need to send the money, as the customer entered it. */
function detailLines(destination: PayoutDestination): { name: string; text: string }[] {
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
        { name: 'coin', text: cryptoCoinLabels[destination.coin] },
        { name: 'address', text: destination.address },
      ];
  }
}

export function PayoutDestinationDetails({ destination }: { destination: PayoutDestination }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600}>
        {payoutMethodLabels[destination.method]}
      </Text>
      {detailLines(destination).map((line) => (
        <Text key={line.name} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {line.text}
        </Text>
      ))}
    </Stack>
  );
}
