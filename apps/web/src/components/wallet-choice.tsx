import type { WalletListItem } from '@coffer/contracts/wallets';
import { useLingui } from '@lingui/react/macro';
import { formatAmountMinor } from '../lib/money.ts';
import { payingWalletOf } from '../lib/wallets.ts';
import { ChoiceSelect } from './choice-select.tsx';

/**
 * Which of the customer's wallets a payment leaves from (issue #33): shown only to a
 * customer with more than one (`useChoosableWallets`), so everyone else's form is as it
 * was. Each wallet shows its currency and what it has available to spend. `walletId` '' is
 * the main wallet, and choosing the main wallet answers '' again.
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
  const { t } = useLingui();
  const labelOf = (wallet: WalletListItem) => {
    const { currency } = wallet;
    const available = formatAmountMinor(wallet.availableMinor, currency);
    return wallet.isMain
      ? t`${currency} wallet · ${available} available (main)`
      : t`${currency} wallet · ${available} available`;
  };
  return (
    <ChoiceSelect
      label={t`From wallet`}
      description={description}
      placeholder={t`Choose a wallet`}
      data={wallets.map((wallet) => ({ value: wallet.id, label: labelOf(wallet) }))}
      value={payingWalletOf(wallets, walletId)?.id ?? ''}
      onChange={(chosen) => {
        if (!chosen) return;
        const isMain = wallets.some((wallet) => wallet.id === chosen && wallet.isMain);
        onChange(isMain ? '' : chosen);
      }}
    />
  );
}
