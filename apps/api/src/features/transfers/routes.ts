import {
  quickPayBodySchema,
  recipientPreviewBodySchema,
  recipientPreviewSchema,
  transferListQuerySchema,
  transferListSchema,
  transferSchema,
} from '@coffer/contracts/transfers';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { replyIdempotentInOneStatement } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import {
  planQuickPay,
  precheckQuickPay,
  previewRecipient,
  type QuickPayPlan,
  sendQuickPay,
  transfersOf,
} from './service.ts';

export const transferRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
    events: app.eventHub,
  };
  app.stepUpPrechecks.register('transfer', (session, intended) =>
    precheckQuickPay(deps, session, intended),
  );

  app.post(
    '/transfers/recipient-preview',
    {
      // Limited per customer in the database (failureLimits.recipientLookup): each answer
      // says whether an account number or email is a payable customer's.
      config: { access: 'customer' },
      schema: { body: recipientPreviewBodySchema, response: { 200: recipientPreviewSchema } },
    },
    (request) => previewRecipient(deps, sessionOf(request), request.body),
  );

  app.post(
    '/transfers',
    {
      config: { access: 'customer', isIdempotent: true, customerLimit: customerLimits.quickPay },
      schema: { body: quickPayBodySchema, response: { 201: transferSchema } },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      return replyIdempotentInOneStatement<QuickPayPlan>(
        request,
        reply,
        `customer:${session.userId}`,
        (claim, plan) => sendQuickPay(deps, claim, plan),
        () => planQuickPay(deps, session, request.body),
      );
    },
  );

  app.get(
    '/transfers',
    {
      config: { access: 'customer' },
      schema: { querystring: transferListQuerySchema, response: { 200: transferListSchema } },
    },
    (request) => transfersOf(deps, sessionOf(request).userId, request.query),
  );
};
