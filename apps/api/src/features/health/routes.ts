import { healthResponseSchema } from '@coffer/contracts/health';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { access: 'public' }, schema: { response: { 200: healthResponseSchema } } },
    async () => ({ status: 'ok' as const, database: app.db.kind, isSandbox: app.config.isSandbox }),
  );
};
