// Placeholder: replaced by the feature's own page in this change.
export function WithdrawForm() {
  return null;
}
