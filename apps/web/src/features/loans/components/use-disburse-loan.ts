import type { Loan } from '@coffer/contracts/loans';
import { useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { adminQueryRoot } from '../../../lib/back-office.ts';
import { formatAmountMinor } from '../../../lib/money.ts';
import { showErrorToast, showSuccessToast } from '../../../lib/toasts.ts';
import { useMoneyAction } from '../../../lib/use-money-action.ts';
import { disburseLoan } from '../api.ts';

/**
 * "Disburse loan", from the customer page's Account Actions or the loans queue's "to
 * disburse" list: one Idempotency-Key per intent, the toast that says whether it paid out
 * or waits for a second admin, and the back office refreshed.
 */
export function useDisburseLoan(onDone: (loan: Loan) => void) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  return useMoneyAction({
    send: (values: { loanId: string; reason: string }, key) =>
      disburseLoan(values.loanId, { reason: values.reason }, key),
    onSent: async (loan) => {
      const amount = formatAmountMinor(loan.amountMinor, loan.currency, {
        currencyDisplay: 'code',
      });
      showSuccessToast(
        loan.status === 'disbursed'
          ? t`Loan disbursed: ${amount}`
          : t`Loan disbursement submitted for approval: ${amount}`,
      );
      onDone(loan);
      await queryClient.invalidateQueries({ queryKey: adminQueryRoot });
    },
    showFailure: (message) => showErrorToast(t`Transaction failed: ${message}`),
  });
}
