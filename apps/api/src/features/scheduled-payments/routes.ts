import {
  scheduleBodySchema,
  scheduledPaymentListSchema,
  scheduledPaymentSchema,
  scheduleIdParamsSchema,
} from '@coffer/contracts/scheduled-payments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { runScheduledPayments, scheduledPaymentsIntervalMs } from './runner.ts';
import {
  changeScheduleStatus,
  createScheduledPayment,
  editScheduledPayment,
  scheduledPaymentsOf,
} from './service.ts';

/**
 * Scheduled and recurring payments (issue #32 item 2, ADR 045). Creating or changing a
 * schedule moves no money, so these routes take no Idempotency-Key: each occurrence is
 * paid by the runner under its own key, `scheduled:<schedule>:<date>`.
 */
export const scheduledPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
    events: app.eventHub,
  };

  await app.jobs.register({
    name: 'scheduled-payments',
    intervalMs: scheduledPaymentsIntervalMs,
    run: (now) => runScheduledPayments(deps, now),
  });

  app.get(
    '/scheduled-payments',
    {
      config: { access: 'customer' },
      schema: { response: { 200: scheduledPaymentListSchema } },
    },
    (request) => scheduledPaymentsOf(deps, sessionOf(request).userId),
  );

  app.post(
    '/scheduled-payments',
    {
      config: { access: 'customer', customerLimit: customerLimits.scheduleChange },
      schema: { body: scheduleBodySchema, response: { 201: scheduledPaymentSchema } },
    },
    async (request, reply) => {
      reply.status(201);
      return createScheduledPayment(deps, sessionOf(request).userId, request.body);
    },
  );

  app.patch(
    '/scheduled-payments/:scheduleId',
    {
      config: { access: 'customer', customerLimit: customerLimits.scheduleChange },
      schema: {
        params: scheduleIdParamsSchema,
        body: scheduleBodySchema,
        response: { 200: scheduledPaymentSchema },
      },
    },
    (request) =>
      editScheduledPayment(
        deps,
        sessionOf(request).userId,
        request.params.scheduleId,
        request.body,
      ),
  );

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `/scheduled-payments/:scheduleId/${action}`,
      {
        config: { access: 'customer', customerLimit: customerLimits.scheduleChange },
        schema: { params: scheduleIdParamsSchema, response: { 200: scheduledPaymentSchema } },
      },
      (request) =>
        changeScheduleStatus(deps, sessionOf(request).userId, request.params.scheduleId, action),
    );
  }
};
