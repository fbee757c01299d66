// Placeholder: replaced by the feature's own page in this change.
export function TransferPage() {
  return null;
}
