import {
  type QuickPayBody,
  quickPayBodySchema,
  recipientPreviewBodySchema,
  recipientPreviewSchema,
  transferListQuerySchema,
  transferListSchema,
  transferSchema,
} from '@coffer/contracts/transfers';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptSessionRow,
  accessGateSql,
  currentTermsVersion,
  sessionOf,
  settleSession,
} from '../../platform/access.ts';
import {
  replyIdempotentInOneStatement,
  replyIdempotentInSessionStatement,
} from '../../platform/idempotency.ts';
import { customerLimitOf, customerLimits } from '../../platform/rate-limits.ts';
import { sessionLookUpParams } from '../../platform/sessions.ts';
import {
  plainQuickPayPlan,
  planQuickPay,
  precheckQuickPay,
  previewRecipient,
  type QuickPayPlan,
  sendQuickPay,
  sendQuickPayInSession,
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
      config: {
        access: 'customer',
        isIdempotent: true,
        customerLimit: customerLimits.quickPay,
        // Its statement reads the session and spends the limit (ADR 057).
        isSessionReadByHandler: true,
      },
      schema: { body: quickPayBodySchema, response: { 201: transferSchema } },
    },
    async (request, reply) => {
      if (await replyPlainQuickPay(request, reply, request.body)) return reply;
      await settleSession(request);
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

  /**
   * A plain Quick Pay from a session this process knows, in one round trip: the session,
   * its request limit and the payment in one statement (ADR 057). False for any other
   * request, or when the session turned out not to be the one guessed: the ordinary way.
   */
  async function replyPlainQuickPay(
    request: FastifyRequest,
    reply: FastifyReply,
    body: QuickPayBody,
  ): Promise<boolean> {
    const guess = request.sessionGuess;
    const plan = guess && plainQuickPayPlan(deps, guess, body);
    if (!guess || !plan) return false;
    const lookUp = {
      params: sessionLookUpParams(guess.tokenHash, customerLimitOf(request)),
      gate: (alias: string, termsParam: string) =>
        accessGateSql(request.routeOptions.config, alias, termsParam),
      termsVersion: currentTermsVersion(request),
    };
    return replyIdempotentInSessionStatement(request, reply, `customer:${guess.userId}`, (claim) =>
      sendQuickPayInSession(deps, lookUp, claim, plan, (row, isSpent) =>
        acceptSessionRow(request, row, isSpent),
      ),
    );
  }

  app.get(
    '/transfers',
    {
      config: { access: 'customer' },
      schema: { querystring: transferListQuerySchema, response: { 200: transferListSchema } },
    },
    (request) => transfersOf(deps, sessionOf(request).userId, request.query),
  );
};
