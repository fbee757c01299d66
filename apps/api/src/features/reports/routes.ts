import { reportsQuerySchema, reportsSchema } from '@coffer/contracts/reports';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffRoutesOf } from '../../platform/access.ts';
import { queueReadingIntervalMs, readQueueSizes, reports } from './service.ts';

/** The institution's reports (issue #30 item 6): staff read them, customers never. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, config: app.config };

  await app.jobs.register({
    name: 'reports-queue-sizes',
    intervalMs: queueReadingIntervalMs,
    run: () => readQueueSizes(deps),
  });

  staffOnly.get(
    '/admin/reports',
    {
      config: { access: 'staff' },
      schema: { querystring: reportsQuerySchema, response: { 200: reportsSchema } },
    },
    (request) => reports(deps, request.query),
  );
};
