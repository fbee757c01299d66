import { Readable } from 'node:stream';
import {
  booksAlertsSchema,
  journalExportDaysMax,
  journalExportQuerySchema,
  trialBalanceQuerySchema,
  trialBalanceSchema,
} from '@coffer/contracts/books';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { staffRoutesOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { recordAudit } from '../../platform/audit.ts';
import { downloadSchema } from '../../platform/downloads.ts';
import { journalCsv, trialBalanceCsv } from './csv.ts';
import { dayBounds } from './queries.ts';
import { booksAlerts, booksCloseIntervalMs, closeDueDays, trialBalance } from './service.ts';

const dayMs = 24 * 60 * 60 * 1000;

function refuseRange(message: string, field: 'from' | 'to'): never {
  throw new AppError('validation_failed', { message, fields: { [field]: message } });
}

/**
 * The operator's books (issue #30): the daily close, the trial balance and the general-
 * ledger export. Staff (support too) read the trial balance; the export of every line of
 * every account is the admin's.
 */
export const booksRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config };

  await app.jobs.register({
    name: 'books-close',
    intervalMs: booksCloseIntervalMs,
    run: async (now) => {
      const closed = await closeDueDays(deps, now);
      if (closed.length > 0) app.log.info({ days: closed }, 'books closed');
    },
  });

  staffOnly.get(
    '/admin/books/trial-balance',
    {
      config: { access: 'staff' },
      schema: {
        querystring: trialBalanceQuerySchema,
        response: { 200: z.union([trialBalanceSchema, downloadSchema]) },
      },
    },
    async (request, reply) => {
      const { format, ...query } = request.query;
      const balance = await trialBalance(deps, query);
      reply.header('cache-control', 'no-store');
      if (format === 'json') return balance;
      const fileName = `trial-balance-${balance.date}${query.currency ? `-${query.currency}` : ''}.csv`;
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      return reply.type('text/csv; charset=utf-8; header=present').send(trialBalanceCsv(balance));
    },
  );

  staffOnly.get(
    '/admin/books/journal.csv',
    {
      config: { access: 'admin' },
      schema: { querystring: journalExportQuerySchema, response: { 200: downloadSchema } },
    },
    async (request, reply, staff) => {
      const { from, to } = request.query;
      if (to < from) refuseRange('The end date comes before the start date', 'to');
      if ((Date.parse(to) - Date.parse(from)) / dayMs + 1 > journalExportDaysMax) {
        refuseRange(`One export covers at most ${journalExportDaysMax} days`, 'to');
      }
      const range = {
        from: (await dayBounds(app.db, from, app.config.timeZone)).startsAt,
        to: (await dayBounds(app.db, to, app.config.timeZone)).endsAt,
      };
      // Every line of every account leaves the building: who took which days is recorded.
      await recordAudit(app.db, {
        action: 'books_journal_exported',
        actorUserId: staff.userId,
        subjectUserId: null,
        after: { from, to },
        ipAddress: request.ip,
      });
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="journal-${from}_${to}.csv"`);
      return reply
        .type('text/csv; charset=utf-8; header=present')
        .send(Readable.from(journalCsv(app.db, range, app.config.glMap)));
    },
  );

  staffOnly.get(
    '/admin/books/alerts',
    { config: { access: 'staff' }, schema: { response: { 200: booksAlertsSchema } } },
    () => booksAlerts(deps),
  );
};
