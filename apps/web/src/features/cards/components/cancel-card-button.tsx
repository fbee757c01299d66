import type { Card } from '@coffer/contracts/cards';
import { useLingui } from '@lingui/react/macro';
import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { cancelCard } from '../api.ts';

/**
 * The customer cancels their card for good (a request: its fee comes back), asked once
 * more first. A cancelled card declines every purchase; a new one can be asked for.
 */
export function CancelCardButton({ card }: { card: Card }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelCard(card.id),
    onSuccess: async () => {
      showSuccessToast(card.status === 'requested' ? t`Card request cancelled` : t`Card cancelled`);
      setIsConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ['cards'] });
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
    },
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  const isRequest = card.status === 'requested';
  const label = isRequest ? t`Cancel the request` : t`Cancel card`;
  if (!isConfirming) {
    return (
      <Button variant="default" color="red" onClick={() => setIsConfirming(true)}>
        {label}
      </Button>
    );
  }
  return (
    <Group gap="sm">
      <Text size="sm">
        {isRequest
          ? t`Cancel your card request? The fee held for it comes back.`
          : t`Cancel this card for good? Every purchase with it is declined from now on.`}
      </Text>
      <Button color="red.9" loading={cancel.isPending} onClick={() => cancel.mutate()}>
        {isRequest ? t`Yes, cancel the request` : t`Yes, cancel card`}
      </Button>
      <Button variant="default" onClick={() => setIsConfirming(false)}>
        {t`Keep it`}
      </Button>
    </Group>
  );
}
