import { decisionBodySchema, rejectBodySchema } from '@coffer/contracts/admin';
import {
  assessmentRequestListSchema,
  autoRepayBodySchema,
  eligibilityBodySchema,
  loanApplicationBodySchema,
  loanDecisionBodySchema,
  loanListSchema,
  loanOverviewSchema,
  loanSchema,
  repayBodySchema,
} from '@coffer/contracts/loans';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { checkStepUp } from '../step-up/service.ts';
import {
  applyForLoan,
  decideLoan,
  loanOverview,
  loanQueue,
  setEligibility,
} from './application.ts';
import { assessmentQueue, declineAssessment, requestAssessment } from './assessment.ts';
import {
  disburseLoan,
  disbursementApprovals,
  disbursementTarget,
  toDisburseQueue,
} from './disbursement.ts';
import {
  collectDueInstalments,
  loanCollectionIntervalMs,
  precheckRepayment,
  repayLoan,
  switchAutoRepay,
} from './repayment.ts';

const userParams = z.object({ userId: z.uuid() });
const loanParams = z.object({ loanId: z.uuid() });

export const loanRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config };
  app.approvals.register('loan_disbursement', disbursementApprovals(deps));
  app.stepUpPrechecks.register('loan_repayment', async (session, intended) => {
    const source = await precheckRepayment(deps, session.userId, intended.loanId, intended.amount);
    return source.toConfirm;
  });
  const stepUpDeps = { db: app.db, config: app.config, mailer: app.mailer, site: app.site };

  await app.jobs.register({
    name: 'loan-collection',
    intervalMs: loanCollectionIntervalMs,
    run: (now) => collectDueInstalments(deps, now),
  });

  app.get(
    '/loans',
    { config: { access: 'customer' }, schema: { response: { 200: loanOverviewSchema } } },
    (request) => loanOverview(deps, sessionOf(request).userId),
  );

  app.post(
    '/loans',
    {
      config: { access: 'customer', customerLimit: customerLimits.loanApplication },
      schema: { body: loanApplicationBodySchema, response: { 201: loanSchema } },
    },
    async (request, reply) => {
      reply.status(201);
      return applyForLoan(deps, sessionOf(request).userId, request.body);
    },
  );

  app.post(
    '/loans/assessment-request',
    {
      config: { access: 'customer', customerLimit: customerLimits.loanApplication },
      schema: { response: { 200: loanOverviewSchema } },
    },
    (request) => requestAssessment(deps, sessionOf(request).userId),
  );

  app.post(
    '/loans/:loanId/repayments',
    {
      config: {
        access: 'customer',
        isIdempotent: true,
        customerLimit: customerLimits.loanRepayment,
      },
      schema: { params: loanParams, body: repayBodySchema, response: { 201: loanSchema } },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      return replyIdempotent(
        request,
        reply,
        `customer:${userId}`,
        async (tx, { source, proof }) => ({
          status: 201,
          body: await repayLoan(deps, tx, { ...source, proof }),
        }),
        // The refusals that need no code come first: nobody types a code only to be told no.
        async () => {
          const source = await precheckRepayment(
            deps,
            userId,
            request.params.loanId,
            request.body.amount,
          );
          const proof = source.needsStepUp
            ? await checkStepUp(
                stepUpDeps,
                userId,
                'loan_repayment',
                request.body.stepUpCode,
                source.toConfirm,
                request.body.stepUpPasskey,
              )
            : null;
          return { source, proof };
        },
      );
    },
  );

  app.put(
    '/loans/:loanId/auto-repay',
    {
      config: { access: 'customer' },
      schema: { params: loanParams, body: autoRepayBodySchema, response: { 200: loanSchema } },
    },
    (request) =>
      switchAutoRepay(
        deps,
        sessionOf(request).userId,
        request.params.loanId,
        request.body.isAutoRepayOn,
      ),
  );

  staffOnly.get(
    '/admin/queues/loans',
    { config: { access: 'staff' }, schema: { response: { 200: loanListSchema } } },
    async () => ({ items: await loanQueue(deps) }),
  );

  staffOnly.get(
    '/admin/queues/loans/assessments',
    {
      config: { access: 'staff' },
      schema: { response: { 200: assessmentRequestListSchema } },
    },
    async () => ({ items: await assessmentQueue(deps) }),
  );

  staffOnly.get(
    '/admin/queues/loans/to-disburse',
    { config: { access: 'staff' }, schema: { response: { 200: loanListSchema } } },
    async () => ({ items: await toDisburseQueue(deps) }),
  );

  staffOnly.get(
    '/admin/users/:userId/loans',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: loanOverviewSchema } },
    },
    async (request) => loanOverview(deps, request.params.userId),
  );

  staffOnly.put(
    '/admin/users/:userId/loan-eligibility',
    {
      config: { access: 'staff', customerLimit: customerLimits.loanStaffAction },
      schema: {
        params: userParams,
        body: eligibilityBodySchema,
        response: { 200: loanOverviewSchema },
      },
    },
    (request) =>
      setEligibility(
        deps,
        request.params.userId,
        request.body,
        staffActionOf(request, request.body.reason),
      ),
  );

  staffOnly.post(
    '/admin/users/:userId/loan-assessment/decline',
    {
      config: { access: 'staff', customerLimit: customerLimits.loanStaffAction },
      schema: { params: userParams, body: rejectBodySchema, response: { 200: loanOverviewSchema } },
    },
    (request) =>
      declineAssessment(deps, request.params.userId, staffActionOf(request, request.body.reason)),
  );

  staffOnly.post(
    '/admin/loans/:loanId/approve',
    {
      config: { access: 'admin' },
      schema: { params: loanParams, body: decisionBodySchema, response: { 200: loanSchema } },
    },
    (request) =>
      decideLoan(
        deps,
        request.params.loanId,
        'approve',
        staffActionOf(request, request.body.reason ?? ''),
      ),
  );

  staffOnly.post(
    '/admin/loans/:loanId/decline',
    {
      config: { access: 'admin' },
      schema: { params: loanParams, body: rejectBodySchema, response: { 200: loanSchema } },
    },
    (request) =>
      decideLoan(
        deps,
        request.params.loanId,
        'decline',
        staffActionOf(request, request.body.reason),
      ),
  );

  staffOnly.post(
    '/admin/loans/:loanId/disburse',
    {
      config: {
        access: 'staff',
        isIdempotent: true,
        customerLimit: customerLimits.loanStaffAction,
      },
      schema: { params: loanParams, body: loanDecisionBodySchema, response: { 200: loanSchema } },
    },
    async (request, reply, staff) => {
      const action = staffActionOf(request, request.body.reason);
      const target = await disbursementTarget(deps, request.params.loanId, action);
      return replyIdempotent(request, reply, `staff:${staff.userId}`, async (tx) => ({
        status: 200,
        body: await disburseLoan({ ...deps, approvals: app.approvals }, tx, target, action),
      }));
    },
  );
};
