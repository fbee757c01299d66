import { siteResponseSchema } from '@coffer/contracts/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/public/site',
    { config: { access: 'public' }, schema: { response: { 200: siteResponseSchema } } },
    async () => ({ ...app.site, languages: [...app.config.languages] }),
  );
};
