import { siteAnswerSchema } from '@coffer/contracts/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/public/site',
    { config: { access: 'public' }, schema: { response: { 200: siteAnswerSchema } } },
    async () => ({ ...app.site, languages: [...app.config.languages] }),
  );
};
