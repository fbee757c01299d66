import {
  customerDetailSchema,
  customerListQuerySchema,
  customerListSchema,
  decisionBodySchema,
  freezeBodySchema,
  setLevelBodySchema,
  setRoleBodySchema,
  transactionPageSchema,
} from '@coffer/contracts/admin';
import { historyQuerySchema, ledgerHealthResponseSchema } from '@coffer/contracts/ledger';
import { minorUnits } from '@coffer/contracts/money';
import { staffWalletListSchema } from '@coffer/contracts/wallets';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { listCustomerWallets } from '../../ledger/wallets.ts';
import { staffActionOf, staffRoutesOf } from '../../platform/access.ts';
import { assert } from '../../platform/assert.ts';
import { decideRoleGrant, setRole } from './role-grants.ts';
import {
  customerDetail,
  customerList,
  customerTransactions,
  setFrozen,
  setLevel,
} from './service.ts';

const userParams = z.object({ userId: z.uuid() });

/**
 * How often one instance checks the ledger's invariants for the metrics
 * (coffer_scheduled_job_last_run_failed{job="ledger-invariants"}, docs/alerts.yml). The
 * check reads every line: hourly keeps it a small part of the database's day.
 */
const ledgerCheckIntervalMs = 60 * 60 * 1000;

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const staffOnly = staffRoutesOf(app);
  const deps = { db: app.db, ledger: app.ledger, config: app.config };

  // A broken invariant is a bug: the failed run is what the metrics and the alert report.
  await app.jobs.register({
    name: 'ledger-invariants',
    intervalMs: ledgerCheckIntervalMs,
    run: async () => {
      const violations = await app.ledger.checkInvariants();
      assert(
        violations.length === 0,
        `ledger invariants broken (${violations.length}), first: ${violations[0]}`,
      );
    },
  });

  // The same invariant check the test suite runs after every test, for operators.
  staffOnly.get(
    '/admin/ledger-health',
    { config: { access: 'admin' }, schema: { response: { 200: ledgerHealthResponseSchema } } },
    async () => {
      const violations = await app.ledger.checkInvariants();
      return { isBalanced: violations.length === 0, violations };
    },
  );

  staffOnly.get(
    '/admin/users',
    {
      config: { access: 'staff' },
      schema: { querystring: customerListQuerySchema, response: { 200: customerListSchema } },
    },
    (request) => customerList(deps, request.query),
  );

  staffOnly.get(
    '/admin/users/:userId',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: customerDetailSchema } },
    },
    (request) => customerDetail(deps, request.params.userId),
  );

  staffOnly.get(
    '/admin/users/:userId/transactions',
    {
      config: { access: 'staff' },
      schema: {
        params: userParams,
        querystring: historyQuerySchema,
        response: { 200: transactionPageSchema },
      },
    },
    (request) => customerTransactions(deps, request.params.userId, request.query),
  );

  // Every wallet of the customer with its balance (issue #33): the main one first.
  staffOnly.get(
    '/admin/users/:userId/wallets',
    {
      config: { access: 'staff' },
      schema: { params: userParams, response: { 200: staffWalletListSchema } },
    },
    async (request) => {
      const wallets = await listCustomerWallets(app.db, request.params.userId);
      const items = [];
      for (const wallet of wallets) {
        const balance = await app.ledger.balance(wallet.id);
        items.push({
          id: wallet.id,
          accountNumber: wallet.number,
          currency: wallet.currency,
          isMain: wallet.isMain,
          balanceMinor: minorUnits(balance.balanceMinor),
          availableMinor: minorUnits(balance.availableMinor),
        });
      }
      return { items };
    },
  );

  for (const [path, isFrozen] of [
    ['/admin/users/:userId/freeze', true],
    ['/admin/users/:userId/unfreeze', false],
  ] as const) {
    staffOnly.post(
      path,
      {
        config: { access: 'admin' },
        schema: {
          params: userParams,
          body: freezeBodySchema,
          response: { 200: customerDetailSchema },
        },
      },
      (request) =>
        setFrozen(
          deps,
          request.params.userId,
          isFrozen,
          staffActionOf(request, request.body.reason),
        ),
    );
  }

  staffOnly.post(
    '/admin/users/:userId/level',
    {
      config: { access: 'admin' },
      schema: {
        params: userParams,
        body: setLevelBodySchema,
        response: { 200: customerDetailSchema },
      },
    },
    (request) =>
      setLevel(
        deps,
        request.params.userId,
        request.body.level,
        staffActionOf(request, request.body.reason),
      ),
  );

  staffOnly.post(
    '/admin/users/:userId/role',
    {
      config: { access: 'admin' },
      schema: {
        params: userParams,
        body: setRoleBodySchema,
        response: { 200: customerDetailSchema },
      },
    },
    (request) =>
      setRole(
        deps,
        request.params.userId,
        request.body.role,
        staffActionOf(request, request.body.reason),
      ),
  );

  // A pending admin grant is decided on the person's page, by a second admin.
  for (const [path, decision] of [
    ['/admin/users/:userId/role-grant/approve', 'approve'],
    ['/admin/users/:userId/role-grant/reject', 'reject'],
  ] as const) {
    staffOnly.post(
      path,
      {
        config: { access: 'admin' },
        schema: {
          params: userParams,
          body: decisionBodySchema,
          response: { 200: customerDetailSchema },
        },
      },
      (request) =>
        decideRoleGrant(
          deps,
          request.params.userId,
          decision,
          staffActionOf(request, request.body.reason ?? ''),
        ),
    );
  }
};
