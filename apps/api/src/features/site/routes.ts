import { siteAnswerSchema } from '@coffer/contracts/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { languageOf } from '../../platform/languages.ts';

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/public/site',
    { config: { access: 'public' }, schema: { response: { 200: siteAnswerSchema } } },
    async (request, reply) => {
      // The texts follow the request's language (the cookie, else the browser's).
      reply.header('vary', 'accept-language, cookie');
      return {
        ...app.siteIn(languageOf(request)),
        languages: [...app.config.languages],
      };
    },
  );
};
