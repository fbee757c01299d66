import { useLingui } from '@lingui/react/macro';
import { Modal } from '../../../components/modal.tsx';
import { QuickPayForm } from './quick-pay-form.tsx';

/**
 * The dashboard's Quick Pay: the Transfer page's form in a dialog, which closes once the
 * money is sent. The form lives inside, so it starts afresh each time the dialog opens.
 */
export function QuickPayDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  return (
    <Modal opened={opened} onClose={onClose} title={t`Quick Pay`} centered>
      <QuickPayForm onSent={onClose} />
    </Modal>
  );
}
