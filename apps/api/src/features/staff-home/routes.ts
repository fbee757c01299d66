import { type QueueCounts, queueCountsSchema, queueNames } from '@coffer/contracts/queues';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffSessionOf } from '../../platform/access.ts';
import { openCountSql } from './queue-counts.ts';

export const staffHomeRoutes: FastifyPluginAsyncZod = async (app) => {
  // Every count in one statement (one round trip, one snapshot), in the home's order.
  const builtQueues = queueNames.filter((queue) => openCountSql[queue]);
  const countsSql = `SELECT ${builtQueues
    .map((queue) => `(${openCountSql[queue]})::int AS "${queue}"`)
    .join(', ')}`;

  app.get(
    '/admin/queues',
    { config: { access: 'staff' }, schema: { response: { 200: queueCountsSchema } } },
    async (request): Promise<QueueCounts> => {
      staffSessionOf(request);
      const found = await app.db.query<Record<string, number>>(countsSql);
      const counts = found.rows[0] ?? {};
      return {
        items: builtQueues.map((queue) => ({ queue, openCount: counts[queue] ?? 0 })),
      };
    },
  );
};
