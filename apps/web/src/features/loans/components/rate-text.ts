import { useLingui } from '@lingui/react/macro';
import { intlLocale } from '../../../lib/i18n.ts';

/**
 * An annual rate in basis points as the page's language writes a percentage ("12.00 %",
 * "12,00 %", "12.00%"): the number in the language's digits and marks, the sign where the
 * language puts it. Basis points are whole, so two decimals are exact.
 */
export function useRateText(): (annualRateBp: number) => string {
  const { t } = useLingui();
  return (annualRateBp) => {
    const rate = new Intl.NumberFormat(intlLocale(), {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    }).format(annualRateBp / 100);
    return t`${rate} %`;
  };
}
