import { stepUpChallengeBodySchema, stepUpChallengeSchema } from '@coffer/contracts/step-up';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { rateLimits } from '../../platform/rate-limits.ts';
import { startStepUp } from './service.ts';

export const stepUpRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, config: app.config, mailer: app.mailer, site: app.site };

  app.post(
    '/step-up/challenges',
    {
      config: { access: 'customer', rateLimit: rateLimits.stepUpChallenge },
      schema: { body: stepUpChallengeBodySchema, response: { 200: stepUpChallengeSchema } },
    },
    (request) => startStepUp(deps, sessionOf(request).userId, request.body.purpose),
  );
};
