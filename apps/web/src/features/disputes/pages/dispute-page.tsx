import type { Dispute } from '@coffer/contracts/disputes';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadingState } from '../../../components/query-states.tsx';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { disputableTransactionQueryOptions } from '../api.ts';
import { DisputeForm } from '../components/dispute-form.tsx';
import { FiledDisputeCard } from '../components/filed-dispute-card.tsx';
import { MyDisputesCard } from '../components/my-disputes-card.tsx';
import { TransactionPicker } from '../components/transaction-picker.tsx';

/**
 * `/dispute`: report an issue, then follow it. Free, like support (PRODUCT.md section 0).
 * `?entry=` names the transaction a row's Dispute button started from.
 */
export function DisputePage() {
  const { t } = useLingui();
  usePageTitle(t`Report an issue`);
  const me = useMe();
  const [filed, setFiled] = useState<Dispute | null>(null);
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Report an issue</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Tell us what went wrong. Filing a dispute is free; staff review it and you can follow it
            here.
          </Trans>
        </Text>
      </Stack>
      {filed ? <FiledDisputeCard dispute={filed} /> : null}
      {me ? <NewDispute currency={me.currency} onFiled={setFiled} /> : null}
      <MyDisputesCard />
    </Stack>
  );
}

/** The form for the chosen transaction, or what stands in for it while it cannot be filed. */
function NewDispute({
  currency,
  onFiled,
}: {
  currency: string;
  onFiled: (dispute: Dispute) => void;
}) {
  const { t } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const entryId = searchParams.get('entry');
  const chosen = useQuery({
    ...disputableTransactionQueryOptions(entryId ?? ''),
    enabled: entryId !== null,
  });
  const transaction = entryId !== null ? (chosen.data ?? null) : null;
  const picker = (
    <TransactionPicker
      value={entryId}
      chosen={transaction}
      onChange={(id) => setSearchParams(id ? { entry: id } : {}, { replace: true })}
    />
  );
  if (entryId !== null && chosen.isPending) {
    return <LoadingState label={t`Loading the transaction`} />;
  }
  if (entryId !== null && (chosen.isError || transaction?.disputeReference)) {
    const reference = transaction?.disputeReference;
    return (
      <Card withBorder padding="lg" component="section" aria-label={t`New dispute`}>
        <Stack gap="md" maw={560}>
          {picker}
          <Alert color={chosen.isError ? 'red' : 'blue'} role="status">
            {reference
              ? t`You already disputed this transaction: ${reference}. Follow it below, or quote it to support.`
              : t`That transaction is not one of yours. Choose one from the list.`}
          </Alert>
        </Stack>
      </Card>
    );
  }
  return (
    <DisputeForm
      key={entryId ?? 'general'}
      currency={currency}
      transaction={transaction}
      picker={picker}
      onFiled={onFiled}
    />
  );
}
