import {
  addPayeeBodySchema,
  payeeIdParamsSchema,
  payeeListSchema,
  payeeSchema,
  renamePayeeBodySchema,
} from '@coffer/contracts/payees';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import {
  type AddPayeePlan,
  addPayee,
  deletePayee,
  payeesOf,
  planAddPayee,
  precheckPayee,
  renamePayee,
} from './service.ts';

export const payeeRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
    events: app.eventHub,
  };
  app.stepUpPrechecks.register(
    'payee',
    async (session, intended) => (await precheckPayee(deps, session, intended.target)).toConfirm,
  );

  app.get(
    '/payees',
    { config: { access: 'customer' }, schema: { response: { 200: payeeListSchema } } },
    (request) => payeesOf(deps, sessionOf(request).userId),
  );

  app.post(
    '/payees',
    {
      config: { access: 'customer', isIdempotent: true, customerLimit: customerLimits.payeeAdd },
      schema: { body: addPayeeBodySchema, response: { 201: payeeSchema } },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const answered = await replyIdempotent<AddPayeePlan>(
        request,
        reply,
        `customer:${session.userId}`,
        (tx, plan) => addPayee(deps, tx, plan),
        () => planAddPayee(deps, session, request.body, request.ip),
      );
      deps.mailer.kick();
      return answered;
    },
  );

  app.patch(
    '/payees/:payeeId',
    {
      config: { access: 'customer' },
      schema: {
        params: payeeIdParamsSchema,
        body: renamePayeeBodySchema,
        response: { 200: payeeSchema },
      },
    },
    (request) =>
      renamePayee(
        deps,
        {
          userId: sessionOf(request).userId,
          payeeId: request.params.payeeId,
          ipAddress: request.ip,
        },
        request.body.nickname,
      ),
  );

  app.delete(
    '/payees/:payeeId',
    { config: { access: 'customer' }, schema: { params: payeeIdParamsSchema } },
    async (request, reply) => {
      await deletePayee(deps, {
        userId: sessionOf(request).userId,
        payeeId: request.params.payeeId,
        ipAddress: request.ip,
      });
      return reply.status(204).send();
    },
  );
};
