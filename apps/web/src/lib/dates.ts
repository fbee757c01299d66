import { intlLocaleOf } from '@coffer/contracts/languages';
import { currentLanguage } from './i18n.ts';
import { writePreferenceCookie } from './preference-cookies.ts';

/**
 * Where dates are shown for: a locale and a time zone, `undefined` meaning the browser's
 * own. Dates follow the page's language (docs/decisions/054), not the browser's: a German
 * page writes 29.11.26 in any browser. The server renders a page for the same language and
 * the time zone the app remembers in a cookie (src/app-server.tsx).
 */
export type DateRegion = { locale: string | undefined; timeZone: string | undefined };

/** Set by the app in every browser it runs in; read by the server. */
export const timeZoneCookieName = 'coffer-time-zone';
/** Formats are kept per region and options; the server meets many regions. */
const keptFormatsMax = 500;

function browserRegion(): DateRegion {
  return { locale: intlLocaleOf(currentLanguage()), timeZone: undefined };
}
/** The region of the render in progress: the browser's own, unless the server says (below). */
let currentRegion: () => DateRegion = browserRegion;
const formats = new Map<string, Intl.DateTimeFormat>();

/** A date format for the current region; `options.timeZone` (e.g. UTC days) wins over it. */
export function dateTimeFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const region = currentRegion();
  const key = JSON.stringify([region.locale, region.timeZone, options]);
  let format = formats.get(key);
  if (!format) {
    if (formats.size >= keptFormatsMax) formats.clear();
    format = new Intl.DateTimeFormat(region.locale, { timeZone: region.timeZone, ...options });
    formats.set(key, format);
  }
  return format;
}

/**
 * For the server: where the render in progress shows its dates. Its renders wait for data
 * and code, so several are under way at once, each with its own request's region.
 */
export function setDateRegionSource(regionOfCurrentRender: () => DateRegion): void {
  currentRegion = regionOfCurrentRender;
}

/**
 * The locale and time zone `dateRegion` comes to, as one name (`en-US Europe/Paris`): the
 * browser hydrates a server-rendered page only if the server wrote its dates for the same.
 */
export function dateRegionName(dateRegion: DateRegion = browserRegion()): string {
  const { locale, timeZone } = new Intl.DateTimeFormat(dateRegion.locale, {
    timeZone: dateRegion.timeZone,
  }).resolvedOptions();
  return `${locale} ${timeZone}`;
}

/** Tells the server which time zone this browser shows times in, for the pages it renders. */
export function rememberTimeZone(): void {
  writePreferenceCookie(timeZoneCookieName, new Intl.DateTimeFormat().resolvedOptions().timeZone);
}

// Dates in the browser's own locale, short format (PRODUCT.md section 5).

export function formatDateTime(isoDate: string): string {
  return dateTimeFormat({ dateStyle: 'short', timeStyle: 'short' }).format(new Date(isoDate));
}

export function formatDate(isoDate: string): string {
  return dateTimeFormat({ dateStyle: 'short' }).format(new Date(isoDate));
}

/** A calendar day the API gives as YYYY-MM-DD (a UTC day), the same in every time zone. */
export function formatUtcDay(isoDay: string): string {
  return dateTimeFormat({ dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );
}
