import {
  cardAuthorizationListSchema,
  cardOverviewSchema,
  cardReasonBodySchema,
  cardSchema,
  issueCardBodySchema,
  issuingAuthorizationAnswerSchema,
  issuingAuthorizationBodySchema,
  issuingSettlementAnswerSchema,
  issuingSettlementBodySchema,
  requestCardBodySchema,
  simulatedPurchaseSchema,
  simulatePurchaseBodySchema,
  staffCardListSchema,
  staffCardSchema,
} from '@coffer/contracts/cards';
import { walletIdQuerySchema } from '@coffer/contracts/wallets';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { issuerSignatureHeaders, keepRawJsonBodies } from '../../platform/issuer-signature.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import {
  cancelCard,
  cardActivity,
  cardOverview,
  cardQueue,
  cardRequestTerms,
  changeCardFreeze,
  declineCard,
  issueCard,
  requestCard,
  staffCardActivity,
  staffCardsOf,
} from './lifecycle.ts';
import { authorizePurchase, settleAuthorization } from './processor.ts';
import { cardDeps } from './shared.ts';
import { simulatePurchase } from './simulated-purchases.ts';

const cardParams = z.object({ cardId: z.uuid() });
const userParams = z.object({ userId: z.uuid() });

/** The customer's card page, the staff queue and decisions, and card freezes. */
export const cardRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = cardDeps(app);

  app.get(
    '/cards',
    {
      config: { access: 'customer' },
      // `?walletId=`: the terms of a card funded from that wallet (another's: not found).
      schema: { querystring: walletIdQuerySchema, response: { 200: cardOverviewSchema } },
    },
    (request) => cardOverview(deps, sessionOf(request).userId, request.query.walletId),
  );

  app.post(
    '/cards',
    {
      config: { access: 'customer', isIdempotent: true, customerLimit: customerLimits.cardRequest },
      schema: { body: requestCardBodySchema, response: { 201: cardSchema } },
    },
    async (request, reply) => {
      const { userId } = sessionOf(request);
      return replyIdempotent(
        request,
        reply,
        `customer:${userId}`,
        async (tx, terms) => ({ status: 201, body: await requestCard(deps, tx, terms) }),
        () => cardRequestTerms(deps, userId, request.body.confirmedFeeMinor, request.body.walletId),
      );
    },
  );

  app.get(
    '/cards/:cardId/authorizations',
    {
      config: { access: 'customer' },
      schema: { params: cardParams, response: { 200: cardAuthorizationListSchema } },
    },
    async (request) => ({
      items: await cardActivity(deps, sessionOf(request).userId, request.params.cardId),
    }),
  );

  app.post(
    '/cards/:cardId/cancel',
    {
      config: { access: 'customer' },
      schema: { params: cardParams, response: { 200: cardSchema } },
    },
    (request) => cancelCard(deps, sessionOf(request).userId, request.params.cardId, request.log),
  );

  for (const [path, isFrozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const) {
    app.post(
      `/cards/:cardId/${path}`,
      {
        config: { access: 'customer' },
        schema: { params: cardParams, response: { 200: cardSchema } },
      },
      (request) => {
        const { userId } = sessionOf(request);
        return changeCardFreeze(deps, {
          cardId: request.params.cardId,
          isFrozen,
          staffAction: null,
          ownerUserId: userId,
        });
      },
    );
    staffOnly.post(
      `/admin/cards/:cardId/${path}`,
      {
        config: { access: 'staff' },
        schema: { params: cardParams, body: cardReasonBodySchema, response: { 200: cardSchema } },
      },
      (request) =>
        changeCardFreeze(deps, {
          cardId: request.params.cardId,
          isFrozen,
          staffAction: staffActionOf(request, request.body.reason),
          ownerUserId: null,
        }),
    );
  }

  app.post(
    '/cards/simulated-purchases',
    {
      config: { access: 'customer', customerLimit: customerLimits.simulatedPurchase },
      schema: { body: simulatePurchaseBodySchema, response: { 200: simulatedPurchaseSchema } },
    },
    async (request) => {
      // The sandbox's own processor: a production server has no such thing.
      if (!app.config.isSandbox) throw new AppError('not_found');
      const idempotencyKey = request.headers['idempotency-key'];
      if (typeof idempotencyKey !== 'string' || idempotencyKey === '') {
        throw new AppError('idempotency_key_required');
      }
      return simulatePurchase(deps, {
        userId: sessionOf(request).userId,
        idempotencyKey,
        purchase: request.body,
        // Through the real endpoints, signature check and all, as a processor would call them.
        sendSigned: async (url, body) => {
          const payload = JSON.stringify(body);
          const response = await app.inject({
            method: 'POST',
            url,
            payload,
            headers: {
              'content-type': 'application/json',
              ...issuerSignatureHeaders(app.config.issuingSecret, payload),
            },
          });
          return { statusCode: response.statusCode, body: response.json() };
        },
      });
    },
  );

  staffOnly.get(
    '/admin/queues/cards',
    { config: { access: 'staff' }, schema: { response: { 200: staffCardListSchema } } },
    async () => ({ items: await cardQueue(deps) }),
  );

  staffOnly.get(
    '/admin/users/:userId/cards',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffCardListSchema } },
    },
    async (request) => ({ items: await staffCardsOf(deps, request.params.userId) }),
  );

  staffOnly.get(
    '/admin/cards/:cardId/authorizations',
    {
      config: { access: 'staff' },
      schema: { params: cardParams, response: { 200: cardAuthorizationListSchema } },
    },
    async (request) => ({ items: await staffCardActivity(deps, request.params.cardId) }),
  );

  staffOnly.post(
    '/admin/cards/:cardId/issue',
    {
      config: { access: 'admin' },
      schema: { params: cardParams, body: issueCardBodySchema, response: { 200: staffCardSchema } },
    },
    (request) =>
      issueCard(deps, request.params.cardId, staffActionOf(request, request.body.reason ?? '')),
  );

  staffOnly.post(
    '/admin/cards/:cardId/decline',
    {
      config: { access: 'admin' },
      schema: {
        params: cardParams,
        body: cardReasonBodySchema,
        response: { 200: staffCardSchema },
      },
    },
    (request) =>
      declineCard(deps, request.params.cardId, staffActionOf(request, request.body.reason)),
  );
};

/**
 * What an issuing processor calls: signed (access `issuer`: HMAC-SHA256 over the raw body
 * and a timestamp, platform/issuer-signature.ts) and idempotent on the processor's ids.
 * A plugin of its own, so only these routes keep their bodies raw for the signature.
 */
export const issuingRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = cardDeps(app);
  keepRawJsonBodies(app);

  app.post(
    '/issuing/authorizations',
    {
      config: { access: 'issuer' },
      schema: {
        body: issuingAuthorizationBodySchema,
        response: { 200: issuingAuthorizationAnswerSchema },
      },
    },
    (request) => authorizePurchase(deps, request.body),
  );

  app.post(
    '/issuing/settlements',
    {
      config: { access: 'issuer' },
      schema: {
        body: issuingSettlementBodySchema,
        response: { 200: issuingSettlementAnswerSchema },
      },
    },
    (request) => settleAuthorization(deps, request.body),
  );
};
