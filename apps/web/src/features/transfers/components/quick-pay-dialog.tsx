// Placeholder: replaced by the feature's own dialog in this change.
export function QuickPayDialog(_props: { opened: boolean; onClose: () => void }) {
  return null;
}
