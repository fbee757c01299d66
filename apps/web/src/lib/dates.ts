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
