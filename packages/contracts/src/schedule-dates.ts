// The calendar of a scheduled payment (issue #32 item 2, ADR 045): which local dates a rule
// pays on. Plain arithmetic on calendar dates ("2027-01-31"), with no time and no zone: the
// customer's zone only decides which date is today (`todayIn`), so a date here never moves
// with a daylight-saving change or an offset.

/** Monthly rules stop at 30: a 31st would be skipped by most months, "last" says what is meant. */
export const dayOfMonthMax = 30;

/** When a schedule pays: once, weekly on an ISO weekday (1 Monday … 7 Sunday), or monthly. */
export type ScheduleRule =
  | { frequency: 'once'; startDate: string }
  | { frequency: 'weekly'; startDate: string; weekday: number }
  | { frequency: 'monthly'; startDate: string; dayOfMonth: number | 'last' };

/** When it stops: never, after a date (inclusive), or after a number of occurrences. */
export type ScheduleEnd =
  | { type: 'never' }
  | { type: 'until'; endDate: string }
  | { type: 'count'; occurrencesMax: number };

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 24 * 60 * 60 * 1000;

/** A real calendar date written YYYY-MM-DD (no 2027-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = isoDatePattern.exec(text);
  if (!match) return false;
  const [, year, month, day] = match.map(Number);
  if (year === undefined || month === undefined || day === undefined) return false;
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days in a month (1–12) of a proleptic Gregorian year: February has 29 in leap years. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function partsOf(date: string): { year: number; month: number; day: number } {
  const [year, month, day] = date.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) {
    throw new Error(`not a calendar date: ${date}`);
  }
  return { year, month, day };
}

function dateOf(year: number, month: number, day: number): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The date `days` after (or before, when negative) `date`. */
export function addDays(date: string, days: number): string {
  const { year, month, day } = partsOf(date);
  const moved = new Date(Date.UTC(year, month - 1, day) + days * dayMs);
  return dateOf(moved.getUTCFullYear(), moved.getUTCMonth() + 1, moved.getUTCDate());
}

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export function weekdayOf(date: string): number {
  const { year, month, day } = partsOf(date);
  const sundayFirst = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return sundayFirst === 0 ? 7 : sundayFirst;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = partsOf(from);
  const b = partsOf(to);
  return Math.round(
    (Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / dayMs,
  );
}

/** The payment day of a monthly rule in one month: the day, or the month's last when shorter. */
function monthlyDate(year: number, month: number, dayOfMonth: number | 'last'): string {
  const last = daysInMonth(year, month);
  return dateOf(year, month, dayOfMonth === 'last' ? last : Math.min(dayOfMonth, last));
}

/** The rule's first date on or after `date` (ignoring the end), or null for a once rule past it. */
export function firstDateOnOrAfter(rule: ScheduleRule, date: string): string | null {
  const from = date < rule.startDate ? rule.startDate : date;
  switch (rule.frequency) {
    case 'once':
      return rule.startDate >= date ? rule.startDate : null;
    case 'weekly':
      return addDays(from, (rule.weekday - weekdayOf(from) + 7) % 7);
    case 'monthly': {
      const { year, month } = partsOf(from);
      const inMonth = monthlyDate(year, month, rule.dayOfMonth);
      if (inMonth >= from) return inMonth;
      const nextYear = month === 12 ? year + 1 : year;
      const nextMonth = month === 12 ? 1 : month + 1;
      return monthlyDate(nextYear, nextMonth, rule.dayOfMonth);
    }
  }
}

/**
 * The date the rule pays after `date`, when the schedule has paid (or tried) `madeCount`
 * times including `date`; null once the end is reached.
 */
export function nextDateAfter(
  rule: ScheduleRule,
  end: ScheduleEnd,
  date: string,
  madeCount: number,
): string | null {
  if (rule.frequency === 'once') return null;
  if (end.type === 'count' && madeCount >= end.occurrencesMax) return null;
  const next = firstDateOnOrAfter(rule, addDays(date, 1));
  if (next === null) return null;
  return end.type === 'until' && next > end.endDate ? null : next;
}

/** The first date a schedule pays from `date` on, within its end; null if none is left. */
export function firstDateWithinEnd(
  rule: ScheduleRule,
  end: ScheduleEnd,
  date: string,
  madeCount: number,
): string | null {
  if (end.type === 'count' && madeCount >= end.occurrencesMax) return null;
  const first = firstDateOnOrAfter(rule, date);
  if (first === null) return null;
  return end.type === 'until' && first > end.endDate ? null : first;
}

/** Up to `countMax` dates from `nextDate` on, as the schedule will pay them. */
export function upcomingDates(
  rule: ScheduleRule,
  end: ScheduleEnd,
  nextDate: string | null,
  madeCount: number,
  countMax: number,
): string[] {
  const dates: string[] = [];
  let date = nextDate;
  let made = madeCount;
  while (date !== null && dates.length < countMax) {
    dates.push(date);
    made += 1;
    date = nextDateAfter(rule, end, date, made);
  }
  return dates;
}
