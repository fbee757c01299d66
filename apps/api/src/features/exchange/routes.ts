import {
  exchangeResultSchema,
  quoteBodySchema,
  quoteParamsSchema,
  quoteSchema,
  ratesSchema,
} from '@coffer/contracts/exchange';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf, staffRoutesOf } from '../../platform/access.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { acceptQuote, createQuote, ratesOverview } from './service.ts';

/**
 * Exchange between a customer's own wallets with a quote (issue #33, ADR 051). Accepting
 * needs no Idempotency-Key: the quote id is the key, and a quote executes once.
 */
export const exchangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, ledger: app.ledger, config: app.config };
  const staffOnly = staffRoutesOf(app);

  app.get(
    '/exchange/rates',
    { config: { access: 'customer' }, schema: { response: { 200: ratesSchema } } },
    () => ratesOverview(deps),
  );

  app.post(
    '/exchange/quotes',
    {
      config: { access: 'customer', customerLimit: customerLimits.exchangeQuote },
      schema: { body: quoteBodySchema, response: { 201: quoteSchema } },
    },
    async (request, reply) =>
      reply.status(201).send(await createQuote(deps, sessionOf(request).userId, request.body)),
  );

  app.post(
    '/exchange/quotes/:quoteId/accept',
    {
      config: { access: 'customer', customerLimit: customerLimits.exchangeQuote },
      schema: { params: quoteParamsSchema, response: { 201: exchangeResultSchema } },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await acceptQuote(deps, sessionOf(request).userId, request.params.quoteId)),
  );

  // The staff's rates page: mid rates with their time, markups (env-only, read-only) and
  // whether the source is healthy.
  staffOnly.get(
    '/admin/exchange/rates',
    { config: { access: 'staff' }, schema: { response: { 200: ratesSchema } } },
    () => ratesOverview(deps),
  );
};
