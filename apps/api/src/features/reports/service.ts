import { minorUnits } from '@coffer/contracts/money';
import type { QueueName } from '@coffer/contracts/queues';
import {
  type ReportDay,
  type Reports,
  type ReportsQuery,
  reportDaysMax,
  reportVolumeKinds,
} from '@coffer/contracts/reports';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../platform/app-error.ts';
import { openQueueCounts } from '../staff-home/queue-counts.ts';
import { dailyPeopleCounts, dailyVolumes, queueSizeReadings, recordQueueSizes } from './queries.ts';

type Deps = { db: Queryable; config: { timeZone: string } };

/** How often the queues are read: the day's last reading is its size in the report. */
export const queueReadingIntervalMs = 15 * 60 * 1000;

const dayMs = 24 * 60 * 60 * 1000;

function refusePeriod(message: string): never {
  throw new AppError('validation_failed', { message, fields: { to: message } });
}

/** Every date from `from` to `to`, both included (dates without a time zone). */
function datesOf(from: string, to: string): string[] {
  const count = (Date.parse(to) - Date.parse(from)) / dayMs + 1;
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.parse(from) + index * dayMs).toISOString().slice(0, 10),
  );
}

/**
 * The institution's report for a period of at most `reportDaysMax` days in one currency:
 * per day of its time zone, what each kind of entry moved, new customers, verifications
 * approved and the queues' sizes as read that day.
 */
export async function reports(
  deps: Deps,
  query: { from: string; to: string; currency: ReportsQuery['currency'] },
): Promise<Reports> {
  const { from, to, currency } = query;
  if (to < from) refusePeriod('The end date comes before the start date');
  const dates = datesOf(from, to);
  if (dates.length > reportDaysMax) refusePeriod(`One report covers at most ${reportDaysMax} days`);
  const span = { from, to, timeZone: deps.config.timeZone };
  const [volumes, people, readings] = await Promise.all([
    dailyVolumes(deps.db, span, currency, reportVolumeKinds),
    dailyPeopleCounts(deps.db, span),
    queueSizeReadings(deps.db, span),
  ]);
  const days = new Map<string, ReportDay>(
    dates.map((date) => [
      date,
      {
        date,
        volumesMinor: Object.fromEntries(
          // Every kind, so that a quiet day charts as zeros.
          reportVolumeKinds.map((kind) => [kind, minorUnits(0n)]),
        ) as ReportDay['volumesMinor'],
        newCustomers: 0,
        verificationsApproved: 0,
        openQueues: null,
      },
    ]),
  );
  for (const { day, kind, amountMinor } of volumes) {
    const found = days.get(day);
    if (found) found.volumesMinor[kind] = minorUnits(amountMinor);
  }
  for (const { day, newCustomers, verificationsApproved } of people) {
    const found = days.get(day);
    if (found) Object.assign(found, { newCustomers, verificationsApproved });
  }
  for (const { day, queue, openCount } of readings) {
    const found = days.get(day);
    if (found) found.openQueues = { ...found.openQueues, [queue as QueueName]: openCount };
  }
  return { from, to, currency, timeZone: deps.config.timeZone, days: [...days.values()] };
}

/** Reads every queue's open count and keeps it as today's size. */
export async function readQueueSizes(deps: Deps): Promise<void> {
  await recordQueueSizes(deps.db, deps.config.timeZone, await openQueueCounts(deps.db));
}
