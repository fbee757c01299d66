import type { WalletListItem } from '@coffer/contracts/wallets';
import { formatAmountMinor } from '../lib/money.ts';
import { payingWalletOf } from '../lib/wallets.ts';
import { ChoiceSelect } from './choice-select.tsx';

/** A wallet as a money form names it: its currency and what it has available to spend. */
export function walletChoiceLabel(wallet: WalletListItem): string {
  const available = formatAmountMinor(wallet.availableMinor, wallet.currency);
  return `${wallet.currency} wallet · ${available} available${wallet.isMain ? ' (main)' : ''}`;
}

/**
 * Which of the customer's wallets a payment leaves from (issue #33): shown only to a
 * customer with more than one (`useChoosableWallets`), so everyone else's form is as it
 * was. `walletId` '' is the main wallet, and choosing the main wallet answers '' again.
 */
export function WalletChoice({
  wallets,
  walletId,
  onChange,
  description,
}: {
  wallets: readonly WalletListItem[];
  walletId: string;
  onChange: (walletId: string) => void;
  description?: string;
}) {
  return (
    <ChoiceSelect
      label="From wallet"
      description={description}
      placeholder="Choose a wallet"
      data={wallets.map((wallet) => ({ value: wallet.id, label: walletChoiceLabel(wallet) }))}
      value={payingWalletOf(wallets, walletId)?.id ?? ''}
      onChange={(chosen) => {
        if (!chosen) return;
        const isMain = wallets.some((wallet) => wallet.id === chosen && wallet.isMain);
        onChange(isMain ? '' : chosen);
      }}
    />
  );
}
