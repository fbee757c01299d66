import { auditPageSchema, auditQuerySchema, customerActivitySchema } from '@coffer/contracts/audit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffRoutesOf } from '../../platform/access.ts';
import { listAuditEvents } from './queries.ts';

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  staffOnly.get(
    '/admin/audit',
    {
      config: { access: 'staff' },
      schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } },
    },
    (request) => listAuditEvents(app.db, request.query),
  );

  // "Activity on your account": what happened to the signed-in person's account, with reasons.
  app.get(
    '/profile/activity',
    {
      config: { access: 'user' },
      schema: {
        querystring: z.object({
          cursor: z.optional(z.uuid()),
          limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 20),
        }),
        response: { 200: customerActivitySchema },
      },
    },
    async (request) => {
      const userId = sessionOf(request).userId;
      const page = await listAuditEvents(app.db, { subjectUserId: userId, ...request.query });
      return {
        items: page.items.map((event) => ({
          id: event.id,
          action: event.action,
          reason: event.reason,
          isByStaff: event.actor !== null && event.actor.id !== userId,
          createdAt: event.createdAt,
        })),
        nextCursor: page.nextCursor,
      };
    },
  );
};
