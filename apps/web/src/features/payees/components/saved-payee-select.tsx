import type { Payee, PayeeKind } from '@coffer/contracts/saved-payees';
import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ChoiceSelect } from '../../../components/choice-select.tsx';
import { payeesQueryOptions } from '../api.ts';
import { useDescribePayeeTarget } from './payee-words.ts';

type TargetOf<Kind extends PayeeKind> = Extract<Payee['target'], { kind: Kind }>;

function isOfKind<Kind extends PayeeKind>(
  payee: Payee,
  kind: Kind,
): payee is Payee & { target: TargetOf<Kind> } {
  return payee.target.kind === kind;
}

/**
 * "Saved payees", above a payment form: choosing one fills the form's recipient fields.
 * Shows nothing while loading, on failure, or when the customer has none of this kind:
 * the form below works as before.
 */
export function SavedPayeeSelect<Kind extends PayeeKind>({
  kind,
  onPick,
  initialPayeeId = null,
}: {
  kind: Kind;
  onPick: (target: TargetOf<Kind>) => void;
  /** A payee a link chose (`?payee=`, e.g. from "Close your account"): picked once loaded. */
  initialPayeeId?: string | null;
}) {
  const { t } = useLingui();
  const describePayeeTarget = useDescribePayeeTarget();
  const payees = useQuery(payeesQueryOptions);
  const ofKind = (payees.data?.items ?? []).filter((payee) => isOfKind(payee, kind));
  const linked = ofKind.find((payee) => payee.id === initialPayeeId);
  const [pickedLinkId, setPickedLinkId] = useState<string | null>(null);
  useEffect(() => {
    if (!linked || pickedLinkId === linked.id) return;
    setPickedLinkId(linked.id);
    onPick(linked.target);
  }, [linked, pickedLinkId, onPick]);
  if (ofKind.length === 0) return null;
  return (
    <ChoiceSelect
      label={t`Saved payees`}
      placeholder={t`Choose a saved payee`}
      isOptional
      value={null}
      data={ofKind.map((payee) => ({
        value: payee.id,
        label: `${payee.nickname} — ${describePayeeTarget(payee.target)}`,
      }))}
      onChange={(payeeId) => {
        const chosen = ofKind.find((payee) => payee.id === payeeId);
        if (chosen) onPick(chosen.target);
      }}
    />
  );
}
