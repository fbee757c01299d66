import {
  notificationEmailSettingSchema,
  notificationListQuerySchema,
  notificationPageSchema,
} from '@coffer/contracts/notifications';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf } from '../../platform/access.ts';
import { setWantsNotificationEmails, wantsNotificationEmails } from './queries.ts';
import { notificationPage, readAllNotifications, readNotification } from './service.ts';

const notificationParams = z.object({ notificationId: z.uuid() });

// 'user': staff get security notifications about their own accounts too.
export const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db };

  app.get(
    '/notifications',
    {
      config: { access: 'user' },
      schema: {
        querystring: notificationListQuerySchema,
        response: { 200: notificationPageSchema },
      },
    },
    (request) => notificationPage(deps, sessionOf(request).userId, request.query),
  );

  app.post(
    '/notifications/:notificationId/read',
    { config: { access: 'user' }, schema: { params: notificationParams } },
    async (request, reply) => {
      await readNotification(deps, sessionOf(request).userId, request.params.notificationId);
      return reply.status(204).send();
    },
  );

  app.post('/notifications/read-all', { config: { access: 'user' } }, async (request, reply) => {
    await readAllNotifications(deps, sessionOf(request).userId);
    return reply.status(204).send();
  });

  app.get(
    '/notifications/email-setting',
    { config: { access: 'user' }, schema: { response: { 200: notificationEmailSettingSchema } } },
    async (request) => ({
      wantsNotificationEmails: await wantsNotificationEmails(app.db, sessionOf(request).userId),
    }),
  );

  app.patch(
    '/notifications/email-setting',
    {
      config: { access: 'user' },
      schema: {
        body: notificationEmailSettingSchema,
        response: { 200: notificationEmailSettingSchema },
      },
    },
    async (request) => {
      const { wantsNotificationEmails: wants } = request.body;
      await setWantsNotificationEmails(app.db, sessionOf(request).userId, wants);
      return { wantsNotificationEmails: wants };
    },
  );
};
