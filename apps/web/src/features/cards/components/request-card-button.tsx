import type { CardOverview } from '@coffer/contracts/cards';
import { Button, Group, List, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { chosenWalletOf } from '../../../lib/wallets.ts';
import { requestCard } from '../api.ts';

/**
 * Get Virtual Card: the fee is shown and confirmed before anything happens (honesty rule
 * 3), then held on the wallet until staff issue (charged) or decline (given back) the card.
 */
export function RequestCardButton({
  terms,
  walletId,
  fromWallet,
}: {
  terms: CardOverview['terms'];
  /** The wallet chosen to fund the card; '' for the main wallet. */
  walletId: string;
  /** That wallet's name, when the customer holds more than one. */
  fromWallet: string | null;
}) {
  const [isOpen, setIsOpen] = useState(false);
  const queryClient = useQueryClient();
  const request = useMoneyAction({
    send: (body: { confirmedFeeMinor: bigint; walletId?: string }, key) => requestCard(body, key),
    onSent: async () => {
      setIsOpen(false);
      showSuccessToast('Card requested. Staff will review it soon.');
      await queryClient.invalidateQueries({ queryKey: ['cards'] });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  const fee = formatAmountMinor(terms.creationFeeMinor, terms.currency);
  const isFree = terms.creationFeeMinor === 0n;
  return (
    <>
      <Button onClick={() => setIsOpen(true)} w={{ base: '100%', xs: 'auto' }}>
        Get Virtual Card
      </Button>
      <ModalOnDemand
        opened={isOpen}
        onClose={() => {
          setIsOpen(false);
          request.reset();
        }}
        title="Get a virtual card"
        centered
      >
        <Stack gap="md">
          <List size="sm" spacing={4}>
            {fromWallet !== null && (
              <List.Item>
                Paid from: <strong>{fromWallet}</strong>
              </List.Item>
            )}
            <List.Item>
              Creation fee: <strong>{isFree ? 'free' : fee}</strong>
            </List.Item>
            <List.Item>
              Weekly spending limit:{' '}
              <strong>{formatAmountMinor(terms.weeklyLimitMinor, terms.currency)}</strong>
            </List.Item>
            <List.Item>
              Available balance: {formatAmountMinor(terms.availableMinor, terms.currency)}
            </List.Item>
          </List>
          {!isFree && (
            <Text size="sm">
              The fee of {fee} is held on your wallet now. It is charged when staff issue your card,
              and given back if they decline the request.
            </Text>
          )}
          <FormAlert message={request.failure} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setIsOpen(false)}>
              Cancel
            </Button>
            <BusyButton
              isBusy={request.isPending}
              busyLabel="Requesting..."
              type="button"
              onClick={() =>
                request.submit({
                  confirmedFeeMinor: terms.creationFeeMinor,
                  ...chosenWalletOf(walletId),
                })
              }
            >
              {isFree ? 'Request card' : `Confirm and hold ${fee}`}
            </BusyButton>
          </Group>
        </Stack>
      </ModalOnDemand>
    </>
  );
}
