import { describe, expect, it } from 'vitest';
import {
  firstDateOnOrAfter,
  isCalendarDate,
  nextDateAfter,
  type ScheduleEnd,
  type ScheduleRule,
  upcomingDates,
  weekdayOf,
} from './schedule-dates.ts';
import { scheduleBodySchema } from './scheduled-payments.ts';

const never: ScheduleEnd = { type: 'never' };

describe('schedule dates', () => {
  it('pays day 30 on the last day of a shorter month, and the 30th again after', () => {
    const rule: ScheduleRule = { frequency: 'monthly', startDate: '2027-01-01', dayOfMonth: 30 };
    expect(upcomingDates(rule, never, '2027-01-30', 0, 4)).toEqual([
      '2027-01-30',
      '2027-02-28',
      '2027-03-30',
      '2027-04-30',
    ]);
    expect(upcomingDates(rule, never, '2028-01-30', 0, 2)).toEqual(['2028-01-30', '2028-02-29']);
  });

  it('pays "last" on 31 January, 28 or 29 February and 31 March', () => {
    const rule: ScheduleRule = {
      frequency: 'monthly',
      startDate: '2027-01-01',
      dayOfMonth: 'last',
    };
    const first = firstDateOnOrAfter(rule, '2027-01-01');
    expect(first).toBe('2027-01-31');
    expect(upcomingDates(rule, never, first, 0, 4)).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
    ]);
    expect(nextDateAfter(rule, never, '2028-01-31', 1)).toBe('2028-02-29');
  });

  it('pays weekly on the chosen weekday from the start date', () => {
    const rule: ScheduleRule = { frequency: 'weekly', startDate: '2027-01-01', weekday: 1 };
    expect(weekdayOf('2027-01-04')).toBe(1);
    expect(upcomingDates(rule, never, firstDateOnOrAfter(rule, '2027-01-01'), 0, 3)).toEqual([
      '2027-01-04',
      '2027-01-11',
      '2027-01-18',
    ]);
  });

  it('stops after N times and after the end date', () => {
    const rule: ScheduleRule = { frequency: 'monthly', startDate: '2027-01-15', dayOfMonth: 15 };
    expect(upcomingDates(rule, { type: 'count', occurrencesMax: 2 }, '2027-01-15', 0, 9)).toEqual([
      '2027-01-15',
      '2027-02-15',
    ]);
    const until: ScheduleEnd = { type: 'until', endDate: '2027-03-14' };
    expect(upcomingDates(rule, until, '2027-01-15', 0, 9)).toEqual(['2027-01-15', '2027-02-15']);
    expect(
      upcomingDates({ frequency: 'once', startDate: '2027-05-01' }, never, '2027-05-01', 0, 9),
    ).toEqual(['2027-05-01']);
  });

  it('knows real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2027-1-5')).toBe(false);
  });
});

describe('the schedule form', () => {
  const base = {
    payeeId: '0190a0b0-0000-7000-8000-000000000000',
    amount: '10.00',
    startDate: '2027-01-31',
  };

  it('refuses day 31 with the reason, and offers the last day instead', () => {
    const parsed = scheduleBodySchema.safeParse({ ...base, frequency: 'monthly', dayOfMonth: 31 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/Day 31 is not offered/);
    expect(
      scheduleBodySchema.safeParse({ ...base, frequency: 'monthly', dayOfMonth: 'last' }).success,
    ).toBe(true);
  });

  it('refuses an end before the start', () => {
    const parsed = scheduleBodySchema.safeParse({
      ...base,
      frequency: 'weekly',
      weekday: 3,
      endType: 'until',
      endDate: '2027-01-30',
    });
    expect(parsed.error?.issues[0]?.message).toBe(
      'The end date must be on or after the first payment date',
    );
    expect(parsed.error?.issues[0]?.path).toEqual(['endDate']);
  });
});
