import type { AssessmentRequest } from '@coffer/contracts/loans';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { onDemand } from '../../../components/on-demand.tsx';
import { TargetModal } from '../../../components/target-modal.tsx';
import { useDialogTarget } from '../../../components/use-dialog-target.ts';
import { adminUserPath } from '../../../lib/back-office.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { formatAmountMinor } from '../../../lib/money.ts';

// Loaded when a dialog first opens, as on the customer page's loans tab.
const DeclineAssessmentForm = onDemand(
  async () => (await import('./decline-assessment-form.tsx')).DeclineAssessmentForm,
  msg`Loading the form`,
);
const EligibilityForm = onDemand(
  async () => (await import('./eligibility-form.tsx')).EligibilityForm,
  msg`Loading the form`,
);

/**
 * Customers who asked for an assessment on their loan page; setting the eligibility here
 * answers them (the request leaves the list and the customer is notified).
 */
export function AssessmentRequestsTable({ requests }: { requests: AssessmentRequest[] }) {
  const { t } = useLingui();
  const dialog = useDialogTarget<AssessmentRequest>();
  const declineDialog = useDialogTarget<AssessmentRequest>();
  const columns: Column<AssessmentRequest>[] = [
    {
      key: 'customer',
      header: t`Customer`,
      cell: (request) => (
        <Anchor component={Link} to={`${adminUserPath(request.userId)}?tab=loans`}>
          {request.username}
        </Anchor>
      ),
    },
    { key: 'asked', header: t`Asked`, cell: (request) => formatDateTime(request.requestedAt) },
    {
      key: 'eligibility',
      header: t`Eligibility now`,
      cell: (request) =>
        request.eligibility
          ? formatAmountMinor(request.eligibility.amountMinor, request.currency)
          : t`Not yet assessed`,
    },
    {
      key: 'actions',
      header: t`Actions`,
      isHeaderHidden: true,
      cell: (request) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" onClick={(event) => dialog.open(request, event.currentTarget)}>
            <Trans>Set eligibility</Trans>
          </Button>
          <Button
            size="xs"
            color="red"
            variant="light"
            onClick={(event) => declineDialog.open(request, event.currentTarget)}
          >
            <Trans>Decline</Trans>
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <>
      <DataTable
        label={t`Assessment requests`}
        columns={columns}
        rows={requests}
        rowKey={(request) => request.userId}
      />
      <TargetModal {...dialog.dialogProps} target={dialog.target} title={t`Set loan eligibility`}>
        {(request) => (
          <EligibilityForm
            userId={request.userId}
            currency={request.currency}
            eligibility={request.eligibility}
            onDone={dialog.dialogProps.onClose}
          />
        )}
      </TargetModal>
      <TargetModal
        {...declineDialog.dialogProps}
        target={declineDialog.target}
        title={t`Decline the assessment`}
      >
        {(request) => (
          <DeclineAssessmentForm request={request} onClose={declineDialog.dialogProps.onClose} />
        )}
      </TargetModal>
    </>
  );
}
