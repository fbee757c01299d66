import type { Dispute } from '@coffer/contracts/disputes';
import { Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../../lib/session.ts';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { DisputeForm } from '../components/dispute-form.tsx';
import { FiledDisputeCard } from '../components/filed-dispute-card.tsx';
import { MyDisputesCard } from '../components/my-disputes-card.tsx';

/** `/dispute`: report an issue, then follow it. Free, like support (PRODUCT.md section 0). */
export function DisputePage() {
  usePageTitle('Report an issue');
  const me = useMe();
  const [filed, setFiled] = useState<Dispute | null>(null);
  return (
    <Stack gap="lg" maw={900}>
      <Stack gap={4}>
        <Title order={1}>Report an issue</Title>
        <Text c="dimmed">
          Tell us what went wrong. Filing a dispute is free; staff review it and you can follow it
          here.
        </Text>
      </Stack>
      {filed ? <FiledDisputeCard dispute={filed} /> : null}
      {me ? <DisputeForm currency={me.currency} onFiled={setFiled} /> : null}
      <MyDisputesCard />
    </Stack>
  );
}
