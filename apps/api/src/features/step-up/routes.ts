import { stepUpChallengeBodySchema, stepUpChallengeSchema } from '@coffer/contracts/step-up';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../platform/access.ts';
import { customerLimits } from '../../platform/rate-limits.ts';
import { precheckRepayment } from '../loans/service.ts';
import { precheckPayout } from '../payouts/service.ts';
import { precheckQuickPay } from '../transfers/service.ts';
import { startStepUp } from './service.ts';

export const stepUpRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
    events: app.eventHub,
  };

  app.post(
    '/step-up/challenges',
    {
      config: { access: 'customer', customerLimit: customerLimits.stepUpChallenge },
      schema: { body: stepUpChallengeBodySchema, response: { 200: stepUpChallengeSchema } },
    },
    async (request) => {
      const session = sessionOf(request);
      const intended = request.body;
      // The payment's own checks first: a refusal is told now, and no code is sent for it.
      if (intended.purpose === 'transfer') await precheckQuickPay(deps, session, intended);
      else if (intended.purpose === 'payout')
        await precheckPayout(deps, session.userId, intended.amount);
      else await precheckRepayment(deps, session.userId, intended.loanId, intended.amount);
      return startStepUp(deps, session.userId, intended.purpose);
    },
  );
};
