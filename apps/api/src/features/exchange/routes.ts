import {
  exchangeResultSchema,
  quoteBodySchema,
  quoteParamsSchema,
  quoteSchema,
  ratesSchema,
} from '@coffer/contracts/exchange';
import {
  markupChangeBodySchema,
  markupPairParamsSchema,
  markupResetBodySchema,
  pairMarkupSchema,
  staffRatesSchema,
} from '@coffer/contracts/fx-markups';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf, staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { resetMarkup, setMarkup } from './markups.ts';
import { acceptQuote, createQuote, ratesOverview, staffRatesOverview } from './service.ts';

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

  // The staff's rates page: mid rates with their time, each pair's markup with where it
  // comes from (configured, or set by staff) and whether the source is healthy.
  staffOnly.get(
    '/admin/exchange/rates',
    { config: { access: 'staff' }, schema: { response: { 200: staffRatesSchema } } },
    () => staffRatesOverview(deps),
  );

  // Changing a markup is an admin's decision on what every customer pays, not a support
  // agent's: admin only, with a reason, audited, and once per Idempotency-Key.
  staffOnly.put(
    '/admin/exchange/markups/:pair',
    {
      config: { access: 'admin', isIdempotent: true },
      schema: {
        params: markupPairParamsSchema,
        body: markupChangeBodySchema,
        response: { 200: pairMarkupSchema },
      },
    },
    async (request, reply, staff) =>
      replyIdempotent(request, reply, `staff:${staff.userId}`, async (tx) => ({
        status: 200,
        body: await setMarkup(
          tx,
          app.config.fx,
          request.params.pair,
          request.body,
          staffActionOf(request, request.body.reason),
        ),
      })),
  );

  // Back to the operator's configured markup for the pair, likewise.
  staffOnly.delete(
    '/admin/exchange/markups/:pair',
    {
      config: { access: 'admin', isIdempotent: true },
      schema: {
        params: markupPairParamsSchema,
        body: markupResetBodySchema,
        response: { 200: pairMarkupSchema },
      },
    },
    async (request, reply, staff) =>
      replyIdempotent(request, reply, `staff:${staff.userId}`, async (tx) => ({
        status: 200,
        body: await resetMarkup(
          tx,
          app.config.fx,
          request.params.pair,
          staffActionOf(request, request.body.reason),
        ),
      })),
  );
};
