import type { MoneyOutAllowance, MoneyOutKind } from '@coffer/contracts/limits';
import { Alert, Anchor, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { Link } from 'react-router';
import { allowancesQueryOptionsFor } from '../lib/allowances.ts';
import { formatAmountMinor } from '../lib/money.ts';

/** How each form names what it moves: "You can still {can} X{after} today". */
const verbs: Record<MoneyOutKind, { can: string; after: string; plural: string }> = {
  transfer: { can: 'send', after: '', plural: 'Quick Pay payments' },
  bill_payment: { can: 'pay', after: ' in bills', plural: 'Bill payments' },
  payout: { can: 'withdraw', after: '', plural: 'Withdrawals' },
};

/** The identity check that raises a customer's level (PRODUCT.md: level 2 once KYC is approved). */
function VerifyIdentityLink() {
  return (
    <Anchor component={Link} to="/kyc" fw={600}>
      Verify your identity
    </Anchor>
  );
}

function NoticeText({ allowance, currency }: { allowance: MoneyOutAllowance; currency: string }) {
  const { can, after, plural } = verbs[allowance.kind];
  if (allowance.status === 'not_available') {
    return (
      <Text size="sm">
        {plural} in {currency} are not available yet: their limits have not been set up. Contact
        support.
      </Text>
    );
  }
  if (allowance.status === 'level_too_low') {
    const level = allowance.minimumLevel;
    return (
      <Text size="sm">
        {level === null
          ? `${plural} are not available on your account.`
          : `${plural} need account level ${level}. `}
        {level === 2 && (
          <>
            <VerifyIdentityLink /> to reach level 2.
          </>
        )}
      </Text>
    );
  }
  return (
    <Text size="sm">
      You can still {can} <b>{formatAmountMinor(allowance.remainingMinor ?? 0n, currency)}</b>
      {after} today, of your daily limit of{' '}
      {formatAmountMinor(allowance.dailyLimitMinor ?? 0n, currency)}.
    </Text>
  );
}

/**
 * The customer's remaining daily allowance for one kind of money out of a wallet, shown before they
 * fill the form in (issue #12.1), or why that kind is not open to them. The server reads
 * it from the same daily totals that enforce the limit; it refreshes after every payment.
 */
export function AllowanceNotice({
  kind,
  walletId = null,
}: {
  kind: MoneyOutKind;
  /** The wallet the form pays from; null: the main wallet. */
  walletId?: string | null;
}) {
  const allowances = useQuery(allowancesQueryOptionsFor(walletId));
  const allowance = allowances.data?.items.find((item) => item.kind === kind);
  if (allowances.isPending) return <AllowanceNoticeSkeleton kind={kind} />;
  if (!allowances.data || !allowance) return null;
  const isOpen = allowance.status === 'allowed';
  return (
    <Alert
      color={isOpen ? 'blue' : 'yellow'}
      variant="light"
      icon={<Info size={18} aria-hidden />}
      role="status"
      aria-label="Daily allowance"
      data-testid={`allowance-${kind}`}
    >
      <NoticeText allowance={allowance} currency={allowances.data.currency} />
    </Alert>
  );
}

/**
 * The notice's place while the allowance loads: the usual sentence, hidden under a
 * skeleton, wraps as the real one will, so the form below does not jump when it arrives.
 */
function AllowanceNoticeSkeleton({ kind }: { kind: MoneyOutKind }) {
  const { can, after } = verbs[kind];
  return (
    <Alert color="gray" variant="light" icon={<Info size={18} aria-hidden />} aria-hidden>
      <Skeleton>
        <Text size="sm">
          You can still {can} $000.00{after} today, of your daily limit of $000.00.
        </Text>
      </Skeleton>
    </Alert>
  );
}

/**
 * Whether the customer's level or the wallet's currency closes this kind to them (the form
 * then waits); `walletId` null: the main wallet.
 */
export function useIsMoneyOutClosed(kind: MoneyOutKind, walletId: string | null = null): boolean {
  const allowances = useQuery(allowancesQueryOptionsFor(walletId));
  const allowance = allowances.data?.items.find((item) => item.kind === kind);
  return allowance !== undefined && allowance.status !== 'allowed';
}
