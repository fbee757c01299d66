import { singleLineText } from './text.ts';
import { z } from './zod.ts';

/** An IANA zone Intl knows ("Asia/Tokyo", "UTC"); offsets like "+09:00" are not places. */
export function isTimeZone(name: string): boolean {
  if (name !== 'UTC' && !name.includes('/')) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = singleLineText({ max: 64 }).check(
  z.refine(isTimeZone, 'Choose a time zone from the list'),
);

/** The customer's own choice on their profile: statements cut days in it. */
export const updateTimeZoneBodySchema = z.object({ timeZone: timeZoneSchema });

type LocaleWithZones = Intl.Locale & { getTimeZones?: () => string[]; timeZones?: string[] };

/**
 * The zone of a country that has one (Japan: Asia/Tokyo; Kuwait: Asia/Kuwait), from the
 * runtime's CLDR data; null for a country with several (the United States, Brazil), where
 * no one zone is right for everybody.
 */
export function countryTimeZone(country: string): string | null {
  let locale: LocaleWithZones;
  try {
    locale = new Intl.Locale(`und-${country}`) as LocaleWithZones;
  } catch {
    return null;
  }
  const zones = locale.getTimeZones?.() ?? locale.timeZones ?? [];
  return zones.length === 1 ? (zones[0] ?? null) : null;
}

// Making an Intl.DateTimeFormat costs far more than formatting with one; zones are few
// (they are checked before they are stored), so each format is made once.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** One format per locale and options, made on first use. */
export function dateTimeFormatOf(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

/** The date in a zone: "2026-12-01" in Tokyo while it is still 30 November in London. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as ISO does: 2026-12-01.
  const isoDate = { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' } as const;
  return dateTimeFormatOf('en-CA', isoDate).format(now);
}

/**
 * The zone a customer's days and times are shown in: their choice, else their country's
 * only zone, else the institution's (COFFER_TIMEZONE) until they choose.
 */
export function customerTimeZone(
  customer: { chosenTimeZone: string | null; country: string },
  institutionTimeZone: string,
): string {
  return customer.chosenTimeZone ?? countryTimeZone(customer.country) ?? institutionTimeZone;
}
