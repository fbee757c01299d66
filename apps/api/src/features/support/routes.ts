import {
  supportMessageBodySchema,
  supportMessageSchema,
  supportThreadSchema,
  supportUnreadSchema,
} from '@coffer/contracts/support';
import {
  staffSupportThreadSchema,
  supportAssignBodySchema,
  supportInboxSchema,
} from '@coffer/contracts/support-staff';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { customerUnreadCount } from './queries.ts';
import {
  assignSupportThread,
  customerThread,
  readThread,
  resolveSupportThread,
  sendCustomerMessage,
  sendStaffReply,
  staffThread,
  supportInbox,
} from './service.ts';

const userParams = z.object({ userId: z.uuid() });

export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config, mailer: app.mailer };

  app.get(
    '/support/thread',
    { config: { access: 'customer' }, schema: { response: { 200: supportThreadSchema } } },
    (request) => customerThread(deps, sessionOf(request).userId),
  );

  app.get(
    '/support/unread',
    { config: { access: 'customer' }, schema: { response: { 200: supportUnreadSchema } } },
    async (request) => ({
      unreadCount: await customerUnreadCount(app.db, sessionOf(request).userId),
    }),
  );

  app.post('/support/thread/read', { config: { access: 'customer' } }, async (request, reply) => {
    await readThread(deps, sessionOf(request).userId);
    return reply.status(204).send();
  });

  app.post(
    '/support/messages',
    {
      config: { access: 'customer', customerLimit: customerLimits.supportMessage },
      schema: { body: supportMessageBodySchema, response: { 201: supportMessageSchema } },
    },
    async (request, reply) => {
      const message = await sendCustomerMessage(deps, sessionOf(request).userId, request.body.body);
      return reply.status(201).send(message);
    },
  );

  staffOnly.get(
    '/admin/queues/support',
    { config: { access: 'staff' }, schema: { response: { 200: supportInboxSchema } } },
    async () => ({ items: await supportInbox(deps) }),
  );

  staffOnly.get(
    '/admin/users/:userId/support',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffSupportThreadSchema } },
    },
    async (request) => staffThread(deps, request.params.userId),
  );

  staffOnly.put(
    '/admin/users/:userId/support/assignee',
    {
      config: { access: 'staff' },
      schema: {
        params: userParams,
        body: supportAssignBodySchema,
        response: { 200: staffSupportThreadSchema },
      },
    },
    (request) =>
      assignSupportThread(
        deps,
        request.params.userId,
        request.body.assigneeUserId,
        staffActionOf(request, ''),
      ),
  );

  staffOnly.post(
    '/admin/users/:userId/support/resolve',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffSupportThreadSchema } },
    },
    (request) => resolveSupportThread(deps, request.params.userId, staffActionOf(request, '')),
  );

  staffOnly.post(
    '/admin/users/:userId/support',
    {
      config: { access: 'staff', customerLimit: customerLimits.supportMessage },
      schema: {
        params: userParams,
        body: supportMessageBodySchema,
        response: { 201: supportMessageSchema },
      },
    },
    async (request, reply) => {
      const message = await sendStaffReply(
        deps,
        request.params.userId,
        request.body.body,
        staffActionOf(request, ''),
      );
      return reply.status(201).send(message);
    },
  );
};
