import type { WalletListItem } from '@coffer/contracts/wallets';
import { formatAmountMinor } from '../lib/money.ts';
import { ChoiceSelect } from './choice-select.tsx';

/** A wallet as a money form names it: its currency and what it has available to spend. */
export function walletChoiceLabel(wallet: WalletListItem): string {
  const available = formatAmountMinor(wallet.availableMinor, wallet.currency);
  return `${wallet.currency} wallet · ${available} available${wallet.isMain ? ' (main)' : ''}`;
}

/**
 * Which of the customer's wallets a payment leaves from (issue #33): shown only to a
 * customer with more than one, so everyone else's form is as it was.
 */
export function WalletChoice({
  wallets,
  value,
  onChange,
  description,
}: {
  wallets: readonly WalletListItem[];
  value: string;
  onChange: (walletId: string) => void;
  description?: string;
}) {
  return (
    <ChoiceSelect
      label="From wallet"
      description={description}
      placeholder="Choose a wallet"
      data={wallets.map((wallet) => ({ value: wallet.id, label: walletChoiceLabel(wallet) }))}
      value={value}
      onChange={(chosen) => {
        if (chosen) onChange(chosen);
      }}
    />
  );
}
