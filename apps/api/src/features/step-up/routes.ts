import { stepUpPasskeyOptionsResponseSchema } from '@coffer/contracts/passkeys';
import { stepUpChallengeSchema } from '@coffer/contracts/step-up';
import { stepUpChallengeBodySchema } from '@coffer/contracts/step-up-payments';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { startStepUp, stepUpPasskeyOptions } from './service.ts';

export const stepUpRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = { db: app.db, config: app.config, mailer: app.mailer, site: app.site };

  app.post(
    '/step-up/challenges',
    {
      config: { access: 'customer', customerLimit: customerLimits.stepUpChallenge },
      schema: { body: stepUpChallengeBodySchema, response: { 200: stepUpChallengeSchema } },
    },
    async (request) => {
      const session = sessionOf(request);
      // The payment's own checks first (each money feature registered its own): a refusal
      // is told now, and no code is sent for it.
      const payment = await app.stepUpPrechecks.run(session, request.body);
      return startStepUp(deps, session.userId, request.body.purpose, payment);
    },
  );

  app.post(
    '/step-up/passkey-options',
    {
      config: { access: 'customer', customerLimit: customerLimits.stepUpChallenge },
      schema: {
        body: stepUpChallengeBodySchema,
        response: { 200: stepUpPasskeyOptionsResponseSchema },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const payment = await app.stepUpPrechecks.run(session, request.body);
      const options = await stepUpPasskeyOptions(
        deps,
        session.userId,
        request.body.purpose,
        payment,
      );
      return { options };
    },
  );
};
