import {
  disputeInvestigateBodySchema,
  disputeListSchema,
  disputeReferenceSchema,
  disputeRejectBodySchema,
  disputeResolveBodySchema,
  disputeSchema,
  disputeTransactionListSchema,
  disputeTransactionSchema,
  staffDisputeListSchema,
  staffDisputeSchema,
} from '@coffer/contracts/disputes';
import { disputeBodySchema } from '@coffer/contracts/disputes-filing';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { cardDeps } from '../cards/shared.ts';
import { moneyRequestTarget } from '../deposits/service.ts';
import {
  customerDispute,
  customerDisputes,
  disputableTransaction,
  disputableTransactions,
  disputeQueue,
  fileDispute,
  followRefundDecisions,
  moveDispute,
  staffDispute,
  staffDisputesOf,
} from './service.ts';

const disputeParams = z.object({ disputeId: z.uuid() });
const entryParams = z.object({ entryId: z.uuid() });
const referenceParams = z.object({ reference: disputeReferenceSchema });
const userParams = z.object({ userId: z.uuid() });

export const disputeRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config, cards: cardDeps(app) };
  app.approvals.follow('money_request', followRefundDecisions(deps));

  app.post(
    '/disputes',
    {
      config: { access: 'customer', customerLimit: customerLimits.dispute },
      schema: { body: disputeBodySchema, response: { 201: disputeSchema } },
    },
    async (request, reply) => {
      const dispute = await fileDispute(deps, sessionOf(request), request.body);
      return reply.status(201).send(dispute);
    },
  );

  app.get(
    '/disputes',
    { config: { access: 'customer' }, schema: { response: { 200: disputeListSchema } } },
    async (request) => ({ items: await customerDisputes(deps, sessionOf(request).userId) }),
  );

  app.get(
    '/disputes/transactions',
    {
      config: { access: 'customer' },
      schema: { response: { 200: disputeTransactionListSchema } },
    },
    async (request) => ({
      items: await disputableTransactions(deps, sessionOf(request).userId),
    }),
  );

  // What a transaction row's Dispute button opens: the line to prefill from, if theirs.
  app.get(
    '/disputes/transactions/:entryId',
    {
      config: { access: 'customer' },
      schema: { params: entryParams, response: { 200: disputeTransactionSchema } },
    },
    (request) => disputableTransaction(deps, sessionOf(request).userId, request.params.entryId),
  );

  app.get(
    '/disputes/:disputeId',
    {
      config: { access: 'customer' },
      schema: { params: disputeParams, response: { 200: disputeSchema } },
    },
    (request) => customerDispute(deps, sessionOf(request).userId, request.params.disputeId),
  );

  staffOnly.get(
    '/admin/queues/disputes',
    { config: { access: 'staff' }, schema: { response: { 200: staffDisputeListSchema } } },
    async () => ({ items: await disputeQueue(deps) }),
  );

  staffOnly.get(
    '/admin/users/:userId/disputes',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffDisputeListSchema } },
    },
    async (request) => ({ items: await staffDisputesOf(deps, request.params.userId) }),
  );

  // By reference: what customers quote in support messages, and what staff links open.
  staffOnly.get(
    '/admin/disputes/:reference',
    {
      config: { access: 'staff' },
      schema: { params: referenceParams, response: { 200: staffDisputeSchema } },
    },
    async (request) => staffDispute(deps, { reference: request.params.reference }),
  );

  staffOnly.post(
    '/admin/disputes/:disputeId/investigate',
    {
      config: { access: 'staff' },
      schema: {
        params: disputeParams,
        body: disputeInvestigateBodySchema,
        response: { 200: staffDisputeSchema },
      },
    },
    (request) =>
      app.db.transaction((tx) =>
        moveDispute(
          deps,
          tx,
          request.params.disputeId,
          { status: 'investigating', note: request.body.note ?? null },
          staffActionOf(request, request.body.note ?? ''),
        ),
      ),
  );

  staffOnly.post(
    '/admin/disputes/:disputeId/reject',
    {
      config: { access: 'staff' },
      schema: {
        params: disputeParams,
        body: disputeRejectBodySchema,
        response: { 200: staffDisputeSchema },
      },
    },
    (request) =>
      app.db.transaction((tx) =>
        moveDispute(
          deps,
          tx,
          request.params.disputeId,
          { status: 'rejected', note: request.body.note },
          staffActionOf(request, request.body.note),
        ),
      ),
  );

  // A resolution may move money (the refund), so it takes an Idempotency-Key like a deposit.
  staffOnly.post(
    '/admin/disputes/:disputeId/resolve',
    {
      config: { access: 'staff', isIdempotent: true },
      schema: {
        params: disputeParams,
        body: disputeResolveBodySchema,
        response: { 200: staffDisputeSchema },
      },
    },
    async (request, reply) => {
      const action = staffActionOf(request, request.body.note);
      const { refundAmount, note } = request.body;
      return replyIdempotent(
        request,
        reply,
        `staff:${action.staff.userId}`,
        async (tx, refundTarget) => ({
          status: 200,
          body: await moveDispute(
            deps,
            tx,
            request.params.disputeId,
            {
              status: 'resolved',
              note,
              ...(refundTarget && refundAmount
                ? { refund: { target: refundTarget, amount: refundAmount } }
                : {}),
            },
            action,
          ),
        }),
        // Looked up before the transaction: on PGlite nothing else may use the database.
        async () => {
          if (!refundAmount) return null;
          const dispute = await staffDispute(deps, { id: request.params.disputeId });
          return moneyRequestTarget(deps, dispute.userId);
        },
      );
    },
  );
};
