import { toCurrencyCode } from '@coffer/contracts/currencies';
import { moneyOutAllowancesSchema } from '@coffer/contracts/limits';
import {
  balanceHistoryQuerySchema,
  balanceHistorySchema,
  recentDepositsQuerySchema,
  recentDepositsSchema,
  spendingSchema,
  testMoneyBodySchema,
  testMoneyResponseSchema,
  testMoneyTermsSchema,
  walletSummarySchema,
  walletTransactionPageSchema,
  walletTransactionsQuerySchema,
} from '@coffer/contracts/wallet';
import {
  openWalletBodySchema,
  walletIdQuerySchema,
  walletListItemSchema,
  walletListSchema,
} from '@coffer/contracts/wallets';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { moneyOutAllowances } from '../../money-out/money-out.ts';
import { sessionOf } from '../../platform/access.ts';
import { replyIdempotent } from '../../platform/idempotency.ts';
import {
  addTestMoney,
  balanceHistory,
  recentDeposits,
  requireWallet,
  spending,
  testMoneyTerms,
  walletSummary,
  walletTransactions,
} from './service.ts';
import { openAnotherWallet, requireOwnWallet, walletList } from './wallets.ts';

/** The signed-in customer's own wallet: there is no way to name anyone else's. */
export const walletRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, ledger: app.ledger, config: app.config };

  app.get(
    '/wallet',
    {
      config: { access: 'customer' },
      schema: { querystring: walletIdQuerySchema, response: { 200: walletSummarySchema } },
    },
    async (request) =>
      walletSummary(
        deps,
        await requireOwnWallet(deps, sessionOf(request).userId, request.query.walletId),
      ),
  );

  // Every wallet of the customer (issue #33): the main one and those in other currencies.
  app.get(
    '/wallets',
    { config: { access: 'customer' }, schema: { response: { 200: walletListSchema } } },
    (request) => walletList(deps, sessionOf(request).userId),
  );

  app.post(
    '/wallets',
    {
      config: { access: 'customer' },
      schema: { body: openWalletBodySchema, response: { 201: walletListItemSchema } },
    },
    async (request, reply) => {
      const opened = await openAnotherWallet(
        deps,
        sessionOf(request).userId,
        request.body.currency,
      );
      return reply.status(201).send(opened);
    },
  );

  // The forms show these up front; live `wallet` events make them stale after a payment.
  // `?walletId=`: the allowances of that wallet's currency (another's wallet: not found).
  app.get(
    '/wallet/allowances',
    {
      config: { access: 'customer' },
      schema: { querystring: walletIdQuerySchema, response: { 200: moneyOutAllowancesSchema } },
    },
    (request) => moneyOutAllowances(deps, sessionOf(request).userId, request.query.walletId),
  );

  app.get(
    '/wallet/transactions',
    {
      config: { access: 'customer' },
      schema: {
        querystring: walletTransactionsQuerySchema,
        response: { 200: walletTransactionPageSchema },
      },
    },
    async (request) =>
      walletTransactions(
        deps,
        await requireOwnWallet(deps, sessionOf(request).userId, request.query.walletId),
        request.query,
      ),
  );

  app.get(
    '/wallet/balance-history',
    {
      config: { access: 'customer' },
      schema: { querystring: balanceHistoryQuerySchema, response: { 200: balanceHistorySchema } },
    },
    async (request) =>
      balanceHistory(
        deps,
        await requireWallet(deps, sessionOf(request).userId),
        request.query.days,
      ),
  );

  app.get(
    '/wallet/spending',
    { config: { access: 'customer' }, schema: { response: { 200: spendingSchema } } },
    async (request) => spending(deps, await requireWallet(deps, sessionOf(request).userId)),
  );

  app.get(
    '/wallet/deposits',
    {
      config: { access: 'customer' },
      schema: { querystring: recentDepositsQuerySchema, response: { 200: recentDepositsSchema } },
    },
    async (request) => ({
      items: await recentDeposits(
        deps,
        await requireWallet(deps, sessionOf(request).userId),
        request.query.limit,
      ),
    }),
  );

  // Sandbox only, like /dev/mail: on a real installation the route does not exist.
  if (app.config.isSandbox) {
    /** The customer's wallet and the sandbox funding account it is credited from. */
    const testMoneyTarget = async (userId: string) => {
      const wallet = await requireWallet(deps, userId);
      // Looked up before any transaction: on PGlite nothing may use the database inside one.
      const sandboxFundingId = await app.ledger.systemAccount(
        'sandbox_funding',
        toCurrencyCode(wallet.currency),
      );
      return { wallet, sandboxFundingId };
    };

    app.get(
      '/wallet/test-money',
      { config: { access: 'customer' }, schema: { response: { 200: testMoneyTermsSchema } } },
      async (request) => testMoneyTerms(deps, await testMoneyTarget(sessionOf(request).userId)),
    );

    app.post(
      '/wallet/test-money',
      {
        config: { access: 'customer', isIdempotent: true },
        schema: { body: testMoneyBodySchema, response: { 201: testMoneyResponseSchema } },
      },
      async (request, reply) => {
        const { userId } = sessionOf(request);
        const target = await testMoneyTarget(userId);
        return replyIdempotent(request, reply, `customer:${userId}`, async (tx) => ({
          status: 201,
          body: await addTestMoney(deps, tx, target, request.body),
        }));
      },
    );
  }
};
