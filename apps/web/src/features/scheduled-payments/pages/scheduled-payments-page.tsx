import type { ScheduledPayment } from '@coffer/contracts/scheduled-payments';
import { Trans, useLingui } from '@lingui/react/macro';
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Modal } from '../../../components/modal.tsx';
import { usePageTitle } from '../../../lib/use-page-title.ts';
import { ScheduleForm } from '../components/schedule-form.tsx';
import { ScheduleList } from '../components/schedule-list.tsx';

export function ScheduledPaymentsPage() {
  const { t } = useLingui();
  usePageTitle(t`Scheduled payments`);
  const headingId = useId();
  // A payee row's "Schedule" link names the payee to start with.
  const [searchParams] = useSearchParams();
  const [formKey, setFormKey] = useState(0);
  const [editing, setEditing] = useState<ScheduledPayment | null>(null);
  return (
    <Stack gap="lg" maw={1040}>
      <Stack gap={4}>
        <Title order={1}>
          <Trans>Scheduled payments</Trans>
        </Title>
        <Text c="dimmed">
          <Trans>
            Pay a saved payee once on a date, or every week or month. Each payment is made on its
            day with the same checks as when you pay by hand; if one cannot be made, we tell you
            why, try once more a few hours later, and the next one is not affected.
          </Trans>
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <ScheduleList onEdit={setEditing} />
        <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
          <Title order={2} id={headingId} mb="md">
            <Trans>Schedule a payment</Trans>
          </Title>
          <ScheduleForm
            key={formKey}
            schedule={null}
            payeeId={searchParams.get('payee')}
            onDone={() => setFormKey((key) => key + 1)}
          />
        </Card>
      </SimpleGrid>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t`Change scheduled payment`}
      >
        {editing && (
          <ScheduleForm schedule={editing} payeeId={null} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}
