import { minorUnitsSchema } from './money.ts';
import { dayOfMonthMax, isCalendarDate } from './schedule-dates.ts';
import { singleLineText } from './text.ts';
import { quickPayAmountSchema } from './transfers.ts';
import { z } from './zod.ts';

export {
  dayOfMonthMax,
  type ScheduleEnd,
  type ScheduleRule,
  upcomingDates,
} from './schedule-dates.ts';

/** Issue #32 item 2: a customer keeps at most this many schedules that are not cancelled. */
export const scheduledPaymentsMax = 50;
/** "After N times" counts up to this: ten years of weekly payments. */
export const occurrencesCountMax = 520;
/** How many upcoming dates the list shows per schedule. */
export const upcomingDatesShown = 3;
export const scheduleReferenceLengthMax = 140;

export const scheduleFrequencies = ['once', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof scheduleFrequencies)[number];
export const scheduleEndTypes = ['never', 'until', 'count'] as const;
export const scheduleStatuses = ['active', 'paused', 'cancelled'] as const;
export type ScheduleStatus = (typeof scheduleStatuses)[number];
export const scheduleKinds = ['quick_pay', 'bill', 'payout'] as const;
export type ScheduleKind = (typeof scheduleKinds)[number];
export const occurrenceStatuses = ['pending', 'paid', 'retrying', 'missed', 'skipped'] as const;
export type OccurrenceStatus = (typeof occurrenceStatuses)[number];

export const weekdayLabels = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export const endBeforeStartMessage = 'The end date must be on or after the first payment date';
export const dayThirtyOneMessage =
  'Day 31 is not offered: choose "Last day of the month" to pay on the 28th–31st';
export const pastDateMessage = 'Choose today or a later date';

const calendarDateSchema = (missing: string) =>
  z.string({ error: missing }).check(z.refine(isCalendarDate, 'Enter a date as YYYY-MM-DD'));

/**
 * A new schedule, or an edit of one (which applies from the next occurrence on). The
 * payee is a saved one (its kind decides Quick Pay, bill or withdrawal); the amount is
 * typed text the server parses in the wallet's currency. A date in the past is refused by
 * the server, which knows the customer's time zone and so their today.
 */
export const scheduleBodySchema = z
  .object({
    payeeId: z.uuid({ error: 'Choose a saved payee' }),
    amount: quickPayAmountSchema,
    reference: z.optional(singleLineText({ max: scheduleReferenceLengthMax })),
    frequency: z.enum(scheduleFrequencies, { error: 'Choose how often to pay' }),
    startDate: calendarDateSchema('Choose the date of the first payment'),
    /** Weekly: ISO weekday, 1 Monday … 7 Sunday. */
    weekday: z.optional(z.number().check(z.int(), z.gte(1), z.lte(7))),
    /** Monthly: a day 1–30, or "last". 31 is refused with its own reason. */
    dayOfMonth: z.optional(
      z.union([z.number().check(z.int(), z.gte(1), z.lte(31)), z.literal('last')]),
    ),
    endType: z._default(z.enum(scheduleEndTypes), 'never'),
    endDate: z.optional(calendarDateSchema('Choose the last date')),
    occurrencesMax: z.optional(z.number().check(z.int(), z.gte(1), z.lte(occurrencesCountMax))),
  })
  .check(
    z.superRefine((body, context) => {
      const issue = (path: string, message: string) =>
        context.addIssue({ code: 'custom', path: [path], message, input: body });
      if (body.frequency === 'weekly' && body.weekday === undefined) {
        issue('weekday', 'Choose the day of the week');
      }
      if (body.frequency === 'monthly') {
        if (body.dayOfMonth === undefined) issue('dayOfMonth', 'Choose the day of the month');
        else if (body.dayOfMonth !== 'last' && body.dayOfMonth > dayOfMonthMax) {
          issue('dayOfMonth', dayThirtyOneMessage);
        }
      }
      if (body.frequency === 'once') return;
      if (body.endType === 'until') {
        if (body.endDate === undefined) issue('endDate', 'Choose the last date');
        else if (isCalendarDate(body.endDate) && body.endDate < body.startDate) {
          issue('endDate', endBeforeStartMessage);
        }
      }
      if (body.endType === 'count' && body.occurrencesMax === undefined) {
        issue('occurrencesMax', 'Enter how many times to pay');
      }
    }),
  );
export type ScheduleBody = z.infer<typeof scheduleBodySchema>;

export const scheduleIdParamsSchema = z.object({ scheduleId: z.uuid() });

export const occurrenceSchema = z.object({
  /** The customer's local date it is (or was) due on. */
  date: z.string(),
  status: z.enum(occurrenceStatuses),
  attempts: z.number(),
  /** Why it was not paid, in the words the notification used. */
  reason: z.nullable(z.string()),
  nextAttemptAt: z.nullable(z.iso.datetime()),
});
export type Occurrence = z.infer<typeof occurrenceSchema>;

export const scheduledPaymentSchema = z.object({
  id: z.string(),
  payeeId: z.string(),
  /** Null when the payee was deleted: its occurrences are refused ("payee gone"). */
  payeeNickname: z.nullable(z.string()),
  kind: z.enum(scheduleKinds),
  amountMinor: minorUnitsSchema,
  currency: z.string(),
  reference: z.nullable(z.string()),
  frequency: z.enum(scheduleFrequencies),
  startDate: z.string(),
  weekday: z.nullable(z.number()),
  dayOfMonth: z.nullable(z.union([z.number(), z.literal('last')])),
  endType: z.enum(scheduleEndTypes),
  endDate: z.nullable(z.string()),
  occurrencesMax: z.nullable(z.number()),
  status: z.enum(scheduleStatuses),
  /** The next dates it will pay on (none when it ended, is paused or cancelled). */
  upcomingDates: z.array(z.string()),
  /** The latest occurrences, newest first: paid, retrying, missed, skipped. */
  recentOccurrences: z.array(occurrenceSchema),
  timeZone: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ScheduledPayment = z.infer<typeof scheduledPaymentSchema>;

export const scheduledPaymentListSchema = z.object({ items: z.array(scheduledPaymentSchema) });
export type ScheduledPaymentList = z.infer<typeof scheduledPaymentListSchema>;

/** "Every month on the last day", "Every Monday", "Once on 2027-01-31". */
export function describeScheduleRule(
  schedule: Pick<ScheduledPayment, 'frequency' | 'startDate' | 'weekday' | 'dayOfMonth'>,
): string {
  switch (schedule.frequency) {
    case 'once':
      return `Once on ${schedule.startDate}`;
    case 'weekly':
      return `Every ${weekdayLabels[(schedule.weekday ?? 1) - 1]}`;
    case 'monthly':
      return schedule.dayOfMonth === 'last'
        ? 'Every month on the last day'
        : `Every month on day ${schedule.dayOfMonth} (the last day when shorter)`;
  }
}
