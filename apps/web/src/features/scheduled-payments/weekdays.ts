import { dateTimeFormat } from '../../lib/dates.ts';

/**
 * The name of a weekday (1 Monday … 7 Sunday) in the page's language, as Intl writes it:
 * 1 January 2024 was a Monday.
 */
export function weekdayName(weekday: number): string {
  return dateTimeFormat({ weekday: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, weekday)),
  );
}
