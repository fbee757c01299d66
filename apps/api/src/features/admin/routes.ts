import { ledgerHealthResponseSchema } from '@coffer/contracts/ledger';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  // The same invariant check the test suite runs after every test, for operators.
  app.get(
    '/admin/ledger-health',
    { config: { access: 'admin' }, schema: { response: { 200: ledgerHealthResponseSchema } } },
    async () => {
      const violations = await app.ledger.checkInvariants();
      return { isBalanced: violations.length === 0, violations };
    },
  );
};
