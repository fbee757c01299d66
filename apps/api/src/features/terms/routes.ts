import { acceptTermsBodySchema, termsResponseSchema } from '@coffer/contracts/terms';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { acceptTerms } from './service.ts';

export const termsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Apart from /public/site, which every page loads: only sign-up and acceptance read these.
  app.get(
    '/public/terms',
    { config: { access: 'public' }, schema: { response: { 200: termsResponseSchema } } },
    async () => ({ terms: app.terms }),
  );

  app.post(
    '/terms/acceptance',
    {
      config: { access: 'customer', isOpenBeforeTermsAcceptance: true },
      schema: { body: acceptTermsBodySchema },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      await acceptTerms(app.db, app.terms, {
        userId: session.userId,
        version: request.body.version,
        previousVersion: session.acceptedTermsVersion,
        ipAddress: request.ip,
      });
      return reply.status(204).send();
    },
  );
};
