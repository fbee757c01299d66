// Dates in the browser's own locale, short format (PRODUCT.md section 5).
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'short',
  timeStyle: 'short',
});
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short' });

export function formatDateTime(isoDate: string): string {
  return dateTimeFormat.format(new Date(isoDate));
}

export function formatDate(isoDate: string): string {
  return dateFormat.format(new Date(isoDate));
}

const utcDayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A calendar day the API gives as YYYY-MM-DD (a UTC day), the same in every time zone. */
export function formatUtcDay(isoDay: string): string {
  return utcDayFormat.format(new Date(`${isoDay}T00:00:00Z`));
}
