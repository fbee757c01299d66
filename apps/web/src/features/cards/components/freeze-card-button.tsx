import type { Card } from '@coffer/contracts/cards';
import { useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Snowflake, Sun } from 'lucide-react';
import { errorMessage } from '../../../lib/api-client.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { setCardFrozen } from '../api.ts';

/**
 * The customer freezes their own card at once (every purchase declined) or unfreezes it.
 * A staff freeze (it has a reason) only staff lift: the status box says so instead.
 */
export function FreezeCardButton({ card }: { card: Card }) {
  if (card.status === 'frozen' && card.reason !== null) return null;
  return <FreezeCardToggle card={card} />;
}

function FreezeCardToggle({ card }: { card: Card }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const isFrozen = card.status === 'frozen';
  const change = useMutation({
    mutationFn: () => setCardFrozen(card.id, !isFrozen),
    onSuccess: async (changed) => {
      showSuccessToast(changed.status === 'frozen' ? t`Card frozen` : t`Card unfrozen`);
      await queryClient.invalidateQueries({ queryKey: ['cards'] });
    },
    onError: (error) => showErrorToast(errorMessage(error)),
  });
  return (
    <Button
      variant={isFrozen ? 'filled' : 'default'}
      leftSection={isFrozen ? <Sun size={16} aria-hidden /> : <Snowflake size={16} aria-hidden />}
      loading={change.isPending}
      onClick={() => change.mutate()}
      w={{ base: '100%', xs: 'auto' }}
    >
      {isFrozen ? t`Unfreeze card` : t`Freeze card`}
    </Button>
  );
}
