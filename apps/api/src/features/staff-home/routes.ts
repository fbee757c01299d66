import { type QueueCounts, queueCountsSchema } from '@coffer/contracts/queues';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffSessionOf } from '../../platform/access.ts';
import { openQueueCounts } from './queue-counts.ts';

export const staffHomeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/admin/queues',
    { config: { access: 'staff' }, schema: { response: { 200: queueCountsSchema } } },
    async (request): Promise<QueueCounts> => {
      staffSessionOf(request);
      return { items: await openQueueCounts(app.db) };
    },
  );
};
