import { rejectBodySchema } from '@coffer/contracts/admin';
import {
  payoutListQuerySchema,
  payoutPageSchema,
  payoutSchema,
  payoutTermsSchema,
  sendPayoutBodySchema,
  staffPayoutListSchema,
  staffPayoutSchema,
} from '@coffer/contracts/payouts';
import { walletIdQuerySchema } from '@coffer/contracts/wallets';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { checkStepUp } from '../step-up/service.ts';
import { payoutRequestSchema } from './crypto-address.ts';
import {
  customerPayouts,
  payoutQueue,
  payoutTerms,
  payoutToConfirm,
  precheckPayout,
  rejectPayout,
  requestPayout,
  sendPayout,
  staffPayoutsOf,
} from './service.ts';

const userParams = z.object({ userId: z.uuid() });
const payoutParams = z.object({ payoutId: z.uuid() });

export const payoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config };
  app.stepUpPrechecks.register('payout', async (session, intended) =>
    payoutToConfirm(
      await precheckPayout(deps, session.userId, intended.amount, intended.walletId),
      intended.destination,
    ),
  );
  const stepUpDeps = { db: app.db, config: app.config, mailer: app.mailer, site: app.site };

  app.get(
    '/payouts/terms',
    {
      config: { access: 'customer' },
      // `?walletId=`: the terms of that wallet (another customer's: not found).
      schema: { querystring: walletIdQuerySchema, response: { 200: payoutTermsSchema } },
    },
    (request) => payoutTerms(deps, sessionOf(request).userId, request.query.walletId),
  );

  app.get(
    '/payouts',
    {
      config: { access: 'customer' },
      schema: { querystring: payoutListQuerySchema, response: { 200: payoutPageSchema } },
    },
    (request) => customerPayouts(deps, sessionOf(request).userId, request.query),
  );

  app.post(
    '/payouts',
    {
      config: { access: 'customer', isIdempotent: true, customerLimit: customerLimits.payout },
      schema: { body: payoutRequestSchema, response: { 201: payoutSchema } },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      const { amount, walletId, stepUpCode, stepUpPasskey, ...destination } = request.body;
      return replyIdempotent(
        request,
        reply,
        `customer:${userId}`,
        async (tx, { source, proof }) => ({
          status: 201,
          body: await requestPayout(deps, tx, { ...source, destination, proof }),
        }),
        // The refusals that need no code come first: nobody types a code only to be told no.
        async () => {
          const source = await precheckPayout(deps, userId, amount, walletId);
          const payment = payoutToConfirm(source, destination);
          const proof = await checkStepUp(
            stepUpDeps,
            userId,
            'payout',
            stepUpCode,
            payment,
            stepUpPasskey,
          );
          return { source, proof };
        },
      );
    },
  );

  staffOnly.get(
    '/admin/queues/payouts',
    { config: { access: 'staff' }, schema: { response: { 200: staffPayoutListSchema } } },
    async () => ({ items: await payoutQueue(deps) }),
  );

  staffOnly.get(
    '/admin/users/:userId/payouts',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffPayoutListSchema } },
    },
    async (request) => ({ items: await staffPayoutsOf(deps, request.params.userId) }),
  );

  staffOnly.post(
    '/admin/payouts/:payoutId/send',
    {
      config: { access: 'admin' },
      schema: {
        params: payoutParams,
        body: sendPayoutBodySchema,
        response: { 200: staffPayoutSchema },
      },
    },
    (request) =>
      sendPayout(
        deps,
        request.params.payoutId,
        request.body.externalReference,
        staffActionOf(request, request.body.reason ?? ''),
      ),
  );

  staffOnly.post(
    '/admin/payouts/:payoutId/reject',
    {
      config: { access: 'admin' },
      schema: {
        params: payoutParams,
        body: rejectBodySchema,
        response: { 200: staffPayoutSchema },
      },
    },
    (request) =>
      rejectPayout(deps, request.params.payoutId, staffActionOf(request, request.body.reason)),
  );
};
