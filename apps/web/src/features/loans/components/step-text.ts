import { intlLocale } from '../../../lib/i18n.ts';
import { minorUnitStep } from '../../../lib/money.ts';

/** The currency's smallest step as the page's language writes it: "0.01", "0,01", "1". */
export function minorUnitStepText(currency: string): string {
  const step = minorUnitStep(currency);
  const decimals = step.split('.')[1]?.length ?? 0;
  return new Intl.NumberFormat(intlLocale(), { minimumFractionDigits: decimals }).format(
    Number(step),
  );
}
