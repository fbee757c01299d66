import {
  billPaymentBodySchema,
  billPaymentListQuerySchema,
  billPaymentListSchema,
  billPaymentSchema,
} from '@coffer/contracts/bills';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { billPaymentHistory, payBill, prepareBillPayment } from './service.ts';

export const billRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, ledger: app.ledger, config: app.config };

  app.post(
    '/bill-payments',
    {
      config: { access: 'customer', isIdempotent: true, customerLimit: customerLimits.billPayment },
      schema: { body: billPaymentBodySchema, response: { 201: billPaymentSchema } },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      return replyIdempotent(
        request,
        reply,
        `customer:${userId}`,
        async (tx, prepared) => ({
          status: 201,
          body: await payBill(deps, tx, userId, request.body, prepared),
        }),
        () => prepareBillPayment(deps, userId, request.body),
      );
    },
  );

  app.get(
    '/bill-payments',
    {
      config: { access: 'customer' },
      schema: { querystring: billPaymentListQuerySchema, response: { 200: billPaymentListSchema } },
    },
    (request) => billPaymentHistory(deps, sessionOf(request).userId, request.query),
  );
};
