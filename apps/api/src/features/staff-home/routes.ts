import { type QueueCounts, queueCountsSchema } from '@coffer/contracts/queues';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffRoutesOf } from '../../platform/access.ts';
import { openQueueCounts } from './queue-counts.ts';

export const staffHomeRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  staffOnly.get(
    '/admin/queues',
    { config: { access: 'staff' }, schema: { response: { 200: queueCountsSchema } } },
    async (): Promise<QueueCounts> => ({ items: await openQueueCounts(app.db) }),
  );
};
