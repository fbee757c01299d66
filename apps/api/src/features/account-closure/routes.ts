import {
  accountClosureSchema,
  closeAccountBodySchema,
  closedAccountSchema,
} from '@coffer/contracts/account-closure';
import { reopenBodySchema, staffAccountClosureSchema } from '@coffer/contracts/account-reopenings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { rateLimits } from '../../platform/rate-limits.ts';
import { clearSessionCookie } from '../../platform/sessions.ts';
import { authDepsOf } from '../auth/routes.ts';
import {
  decideReopening,
  reopeningApprovals,
  requestReopening,
  staffClosureOf,
} from './reopening.ts';
import { personalDataRetentionJob } from './retention.ts';
import { accountClosureOf, closeAccount } from './service.ts';

const userParams = z.object({ userId: z.uuid() });
const reopeningParams = z.object({ reopeningId: z.uuid() });

export const accountClosureRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const reopeningDeps = { db: app.db, approvals: app.approvals };
  app.approvals.register('account_reopening', reopeningApprovals());
  await app.jobs.register(
    personalDataRetentionJob({ db: app.db, retentionYears: app.config.retentionYears }),
  );

  app.get(
    '/account-closure',
    { config: { access: 'customer' }, schema: { response: { 200: accountClosureSchema } } },
    (request) => accountClosureOf(authDepsOf(request), sessionOf(request).userId),
  );

  app.post(
    '/account-closure',
    {
      config: { access: 'customer', rateLimit: rateLimits.reauthentication },
      schema: { body: closeAccountBodySchema, response: { 200: closedAccountSchema } },
    },
    async (request, reply) => {
      const closed = await closeAccount(
        authDepsOf(request),
        sessionOf(request).userId,
        request.body,
        request.ip,
      );
      clearSessionCookie(reply, app.config);
      return closed;
    },
  );

  staffOnly.get(
    '/admin/users/:userId/closure',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffAccountClosureSchema } },
    },
    (request) => staffClosureOf(reopeningDeps, request.params.userId),
  );

  staffOnly.post(
    '/admin/users/:userId/reopenings',
    {
      config: { access: 'admin' },
      schema: {
        params: userParams,
        body: reopenBodySchema,
        response: { 201: staffAccountClosureSchema },
      },
    },
    async (request, reply) => {
      const action = staffActionOf(request, request.body.reason);
      reply.status(201);
      return requestReopening(reopeningDeps, request.params.userId, action);
    },
  );

  // approve and reject: a second admin; cancel: the admin who asked (approvals/ checks).
  for (const decision of ['approve', 'reject', 'cancel'] as const) {
    staffOnly.post(
      `/admin/account-reopenings/:reopeningId/${decision}`,
      {
        config: { access: 'admin' },
        schema: {
          params: reopeningParams,
          body: reopenBodySchema,
          response: { 200: staffAccountClosureSchema },
        },
      },
      (request) =>
        decideReopening(
          reopeningDeps,
          request.params.reopeningId,
          decision,
          staffActionOf(request, request.body.reason),
        ),
    );
  }
};
