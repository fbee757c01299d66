import type { CardOverview } from '@coffer/contracts/cards';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, List, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton } from '../../../components/busy-button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { ModalOnDemand } from '../../../components/modal-on-demand.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { requestCard } from '../api.ts';

/**
 * Get Virtual Card: the fee is shown and confirmed before anything happens (honesty rule
 * 3), then held on the wallet until staff issue (charged) or decline (given back) the card.
 */
export function RequestCardButton({ terms }: { terms: CardOverview['terms'] }) {
  const { t } = useLingui();
  const [isOpen, setIsOpen] = useState(false);
  const queryClient = useQueryClient();
  const request = useMoneyAction({
    send: (body: { feeMinor: bigint }, key) => requestCard(body.feeMinor, key),
    onSent: async () => {
      setIsOpen(false);
      showSuccessToast(t`Card requested. Staff will review it soon.`);
      await queryClient.invalidateQueries({ queryKey: ['cards'] });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
  const fee = formatAmountMinor(terms.creationFeeMinor, terms.currency);
  const isFree = terms.creationFeeMinor === 0n;
  const weeklyLimit = formatAmountMinor(terms.weeklyLimitMinor, terms.currency);
  const available = formatAmountMinor(terms.availableMinor, terms.currency);
  return (
    <>
      <Button onClick={() => setIsOpen(true)} w={{ base: '100%', xs: 'auto' }}>
        <Trans>Get Virtual Card</Trans>
      </Button>
      <ModalOnDemand
        opened={isOpen}
        onClose={() => {
          setIsOpen(false);
          request.reset();
        }}
        title={t`Get a virtual card`}
        centered
      >
        <Stack gap="md">
          <List size="sm" spacing={4}>
            <List.Item>
              {isFree ? (
                <Trans>
                  Creation fee: <strong>free</strong>
                </Trans>
              ) : (
                <Trans>
                  Creation fee: <strong>{fee}</strong>
                </Trans>
              )}
            </List.Item>
            <List.Item>
              <Trans>
                Weekly spending limit: <strong>{weeklyLimit}</strong>
              </Trans>
            </List.Item>
            <List.Item>
              <Trans>
                Available balance: <bdi>{available}</bdi>
              </Trans>
            </List.Item>
          </List>
          {!isFree && (
            <Text size="sm">
              <Trans>
                The fee of <bdi>{fee}</bdi> is held on your wallet now. It is charged when staff
                issue your card, and given back if they decline the request.
              </Trans>
            </Text>
          )}
          <FormAlert message={request.failure} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setIsOpen(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <BusyButton
              isBusy={request.isPending}
              busyLabel={t`Requesting...`}
              type="button"
              onClick={() => request.submit({ feeMinor: terms.creationFeeMinor })}
            >
              {isFree ? t`Request card` : t`Confirm and hold ${fee}`}
            </BusyButton>
          </Group>
        </Stack>
      </ModalOnDemand>
    </>
  );
}
