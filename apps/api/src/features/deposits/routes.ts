import {
  decisionBodySchema,
  moneyRequestBodySchema,
  moneyRequestListSchema,
  moneyRequestSchema,
  rejectBodySchema,
} from '@coffer/contracts/admin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import type { MoneyRequestDirection } from './queries.ts';
import {
  cancelMoneyRequest,
  createMoneyRequest,
  decideMoneyRequest,
  moneyRequestApprovals,
  moneyRequestsOf,
  moneyRequestTarget,
  pendingMoneyRequests,
} from './service.ts';

const userParams = z.object({ userId: z.uuid() });
const requestParams = z.object({ requestId: z.uuid() });

export const depositRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config };
  app.approvals.register('money_request', moneyRequestApprovals(deps));

  const paths: [string, MoneyRequestDirection][] = [
    ['/admin/users/:userId/deposits', 'deposit'],
    ['/admin/users/:userId/adjustments', 'debit_adjustment'],
  ];
  for (const [path, direction] of paths) {
    staffOnly.post(
      path,
      {
        config: { access: 'staff', isIdempotent: true },
        schema: {
          params: userParams,
          body: moneyRequestBodySchema,
          response: { 201: moneyRequestSchema },
        },
      },
      async (request, reply, staff) => {
        const target = await moneyRequestTarget(deps, request.params.userId);
        return replyIdempotent(request, reply, `staff:${staff.userId}`, async (tx) => ({
          status: 201,
          body: await createMoneyRequest(
            deps,
            tx,
            target,
            direction,
            request.body,
            staffActionOf(request, request.body.reason),
          ),
        }));
      },
    );
  }

  staffOnly.get(
    '/admin/users/:userId/money-requests',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: moneyRequestListSchema } },
    },
    async (request) => ({ items: await moneyRequestsOf(deps, request.params.userId) }),
  );

  staffOnly.get(
    '/admin/queues/deposits',
    { config: { access: 'staff' }, schema: { response: { 200: moneyRequestListSchema } } },
    async () => ({ items: await pendingMoneyRequests(deps) }),
  );

  staffOnly.post(
    '/admin/money-requests/:requestId/approve',
    {
      config: { access: 'admin' },
      schema: {
        params: requestParams,
        body: decisionBodySchema,
        response: { 200: moneyRequestSchema },
      },
    },
    (request) =>
      decideMoneyRequest(
        deps,
        app.approvals,
        request.params.requestId,
        'approve',
        staffActionOf(request, request.body.reason ?? ''),
      ),
  );

  staffOnly.post(
    '/admin/money-requests/:requestId/reject',
    {
      config: { access: 'admin' },
      schema: {
        params: requestParams,
        body: rejectBodySchema,
        response: { 200: moneyRequestSchema },
      },
    },
    (request) =>
      decideMoneyRequest(
        deps,
        app.approvals,
        request.params.requestId,
        'reject',
        staffActionOf(request, request.body.reason),
      ),
  );

  staffOnly.post(
    '/admin/money-requests/:requestId/cancel',
    {
      config: { access: 'staff' },
      schema: {
        params: requestParams,
        body: decisionBodySchema,
        response: { 200: moneyRequestSchema },
      },
    },
    (request) =>
      cancelMoneyRequest(
        deps,
        app.approvals,
        request.params.requestId,
        staffActionOf(request, request.body.reason ?? ''),
      ),
  );
};
