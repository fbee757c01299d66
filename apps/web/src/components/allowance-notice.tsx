import type { MoneyOutAllowance, MoneyOutKind } from '@coffer/contracts/limits';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Info } from 'lucide-react';
import { Link } from 'react-router';
import { allowancesQueryOptions } from '../lib/allowances.ts';
import { formatAmountMinor } from '../lib/money.ts';

/** The identity check that raises a customer's level (PRODUCT.md: level 2 once KYC is approved). */
function ReachLevelTwo() {
  return (
    <Trans>
      <Anchor component={Link} to="/kyc" fw={600}>
        Verify your identity
      </Anchor>{' '}
      to reach level 2.
    </Trans>
  );
}

/**
 * Each kind's sentences whole, as a translator needs them (word order differs by
 * language): `kind` picks the sentence, never a word spliced into one.
 */
function NotAvailableText({ kind, currency }: { kind: MoneyOutKind; currency: string }) {
  if (kind === 'transfer') {
    return (
      <Trans>
        Quick Pay payments in {currency} are not available yet: their limits have not been set up.
        Contact support.
      </Trans>
    );
  }
  if (kind === 'bill_payment') {
    return (
      <Trans>
        Bill payments in {currency} are not available yet: their limits have not been set up.
        Contact support.
      </Trans>
    );
  }
  return (
    <Trans>
      Withdrawals in {currency} are not available yet: their limits have not been set up. Contact
      support.
    </Trans>
  );
}

function LevelTooLowText({ kind, level }: { kind: MoneyOutKind; level: number | null }) {
  const { t } = useLingui();
  if (level === null) {
    if (kind === 'transfer') return t`Quick Pay payments are not available on your account.`;
    if (kind === 'bill_payment') return t`Bill payments are not available on your account.`;
    return t`Withdrawals are not available on your account.`;
  }
  if (kind === 'transfer') return t`Quick Pay payments need account level ${level}.`;
  if (kind === 'bill_payment') return t`Bill payments need account level ${level}.`;
  return t`Withdrawals need account level ${level}.`;
}

function RemainingText({
  kind,
  remaining,
  dailyLimit,
}: {
  kind: MoneyOutKind;
  remaining: string;
  dailyLimit: string;
}) {
  if (kind === 'transfer') {
    return (
      <Trans>
        You can still send <b>{remaining}</b> today, of your daily limit of {dailyLimit}.
      </Trans>
    );
  }
  if (kind === 'bill_payment') {
    return (
      <Trans>
        You can still pay <b>{remaining}</b> in bills today, of your daily limit of {dailyLimit}.
      </Trans>
    );
  }
  return (
    <Trans>
      You can still withdraw <b>{remaining}</b> today, of your daily limit of {dailyLimit}.
    </Trans>
  );
}

function NoticeText({ allowance, currency }: { allowance: MoneyOutAllowance; currency: string }) {
  if (allowance.status === 'not_available') {
    return (
      <Text size="sm">
        <NotAvailableText kind={allowance.kind} currency={currency} />
      </Text>
    );
  }
  if (allowance.status === 'level_too_low') {
    const level = allowance.minimumLevel;
    return (
      <Text size="sm">
        <LevelTooLowText kind={allowance.kind} level={level} /> {level === 2 && <ReachLevelTwo />}
      </Text>
    );
  }
  return (
    <Text size="sm">
      <RemainingText
        kind={allowance.kind}
        remaining={formatAmountMinor(allowance.remainingMinor ?? 0n, currency)}
        dailyLimit={formatAmountMinor(allowance.dailyLimitMinor ?? 0n, currency)}
      />
    </Text>
  );
}

/**
 * The customer's remaining daily allowance for one kind of money out, shown before they
 * fill the form in (issue #12.1), or why that kind is not open to them. The server reads
 * it from the same daily totals that enforce the limit; it refreshes after every payment.
 */
export function AllowanceNotice({ kind }: { kind: MoneyOutKind }) {
  const allowances = useQuery(allowancesQueryOptions);
  const allowance = allowances.data?.items.find((item) => item.kind === kind);
  const { t } = useLingui();
  if (allowances.isPending) return <AllowanceNoticeSkeleton kind={kind} />;
  if (!allowances.data || !allowance) return null;
  const isOpen = allowance.status === 'allowed';
  return (
    <Alert
      color={isOpen ? 'blue' : 'yellow'}
      variant="light"
      icon={<Info size={18} aria-hidden />}
      role="status"
      aria-label={t`Daily allowance`}
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
  return (
    <Alert color="gray" variant="light" icon={<Info size={18} aria-hidden />} aria-hidden>
      <Skeleton>
        <Text size="sm">
          <RemainingText kind={kind} remaining="$000.00" dailyLimit="$000.00" />
        </Text>
      </Skeleton>
    </Alert>
  );
}

/** Whether the customer's level or currency closes this kind to them (the form then waits). */
export function useIsMoneyOutClosed(kind: MoneyOutKind): boolean {
  const allowances = useQuery(allowancesQueryOptions);
  const allowance = allowances.data?.items.find((item) => item.kind === kind);
  return allowance !== undefined && allowance.status !== 'allowed';
}
