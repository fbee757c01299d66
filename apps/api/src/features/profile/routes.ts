import {
  updateLanguageBodySchema,
  updateLanguageResponseSchema,
} from '@coffer/contracts/language-choice';
import {
  passkeyListSchema,
  passkeyRegistrationBodySchema,
  passkeyRegistrationOptionsBodySchema,
  passkeyRegistrationOptionsResponseSchema,
  passkeyRemoveBodySchema,
  passkeyRenameBodySchema,
} from '@coffer/contracts/passkeys';
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  profileSchema,
  sessionListSchema,
  totpDisableBodySchema,
  totpEnableBodySchema,
  totpEnableResponseSchema,
  totpSetupBodySchema,
  totpSetupResponseSchema,
  updateUsernameBodySchema,
} from '@coffer/contracts/profile';
import { updateTimeZoneBodySchema } from '@coffer/contracts/time-zones';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { sessionOf } from '../../platform/access.ts';
import { AppError } from '../../platform/app-error.ts';
import { setLanguageCookie } from '../../platform/languages.ts';
import { rateLimits } from '../../platform/rate-limits.ts';
import { revokeSession, revokeUserSessions, setSessionCookie } from '../../platform/sessions.ts';
import { authDepsOf, clientOf } from '../auth/routes.ts';
import {
  finishPasskeyRegistration,
  listPasskeys,
  removeUserPasskey,
  renameUserPasskey,
  startPasskeyRegistration,
} from './passkeys.ts';
import {
  changePassword,
  disableTotp,
  enableTotp,
  getProfile,
  listSessions,
  requestEmailChange,
  startTotpSetup,
  updateLanguage,
  updateTimeZone,
  updateUsername,
} from './service.ts';

/** After a security change succeeds: sign out everywhere else if the person asked to. */
async function endOtherSessionsIfAsked(request: FastifyRequest, isAsked: boolean): Promise<void> {
  if (!isAsked) return;
  const session = sessionOf(request);
  await revokeUserSessions(request.server.db, session.userId, {
    exceptSessionId: session.sessionId,
  });
}

const reauthenticated = { access: 'user' as const, rateLimit: rateLimits.reauthentication };

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/profile',
    { config: { access: 'user' }, schema: { response: { 200: profileSchema } } },
    (request) => getProfile(authDepsOf(request), sessionOf(request).userId),
  );

  app.patch(
    '/profile/username',
    {
      config: { access: 'user' },
      schema: { body: updateUsernameBodySchema, response: { 200: profileSchema } },
    },
    (request) =>
      updateUsername(authDepsOf(request), sessionOf(request).userId, request.body.username),
  );

  app.patch(
    '/profile/time-zone',
    {
      config: { access: 'user' },
      schema: { body: updateTimeZoneBodySchema, response: { 200: profileSchema } },
    },
    (request) =>
      updateTimeZone(authDepsOf(request), sessionOf(request).userId, request.body.timeZone),
  );

  // Customers and staff alike: the back office follows its staff member's choice too. Open
  // before the terms are accepted or the password changed: those pages are read in it.
  app.put(
    '/profile/language',
    {
      config: {
        access: 'user',
        isOpenBeforePasswordChange: true,
        isOpenBeforeTermsAcceptance: true,
      },
      schema: { body: updateLanguageBodySchema, response: { 200: updateLanguageResponseSchema } },
    },
    async (request, reply) => {
      const language = await updateLanguage(
        authDepsOf(request),
        sessionOf(request).userId,
        request.body.language,
      );
      setLanguageCookie(reply, app.config, language);
      return { language };
    },
  );

  app.post(
    '/profile/email',
    {
      config: reauthenticated,
      schema: { body: changeEmailBodySchema, response: { 202: profileSchema } },
    },
    async (request, reply) => {
      const profile = await requestEmailChange(
        authDepsOf(request),
        sessionOf(request).userId,
        request.body,
      );
      await endOtherSessionsIfAsked(request, request.body.endOtherSessions);
      return reply.status(202).send(profile);
    },
  );

  app.post(
    '/profile/password',
    {
      config: { ...reauthenticated, isOpenBeforePasswordChange: true },
      schema: { body: changePasswordBodySchema },
    },
    async (request, reply) => {
      const token = await changePassword(
        authDepsOf(request),
        sessionOf(request),
        request.body,
        clientOf(request),
      );
      setSessionCookie(reply, app.config, token);
      return reply.status(204).send();
    },
  );

  app.post(
    '/profile/totp/setup',
    {
      config: reauthenticated,
      schema: { body: totpSetupBodySchema, response: { 200: totpSetupResponseSchema } },
    },
    (request) =>
      startTotpSetup(authDepsOf(request), sessionOf(request).userId, request.body.currentPassword),
  );

  app.post(
    '/profile/totp/enable',
    {
      config: reauthenticated,
      schema: { body: totpEnableBodySchema, response: { 200: totpEnableResponseSchema } },
    },
    async (request) => {
      const recoveryCodes = await enableTotp(
        authDepsOf(request),
        sessionOf(request).userId,
        request.body.code,
      );
      await endOtherSessionsIfAsked(request, request.body.endOtherSessions);
      return { recoveryCodes };
    },
  );

  app.post(
    '/profile/totp/disable',
    { config: reauthenticated, schema: { body: totpDisableBodySchema } },
    async (request, reply) => {
      await disableTotp(authDepsOf(request), sessionOf(request).userId, request.body.code);
      await endOtherSessionsIfAsked(request, request.body.endOtherSessions);
      return reply.status(204).send();
    },
  );

  app.get(
    '/profile/sessions',
    { config: { access: 'user' }, schema: { response: { 200: sessionListSchema } } },
    async (request) => ({ sessions: await listSessions(authDepsOf(request), sessionOf(request)) }),
  );

  app.delete(
    '/profile/sessions/:sessionId',
    { config: { access: 'user' }, schema: { params: z.object({ sessionId: z.uuid() }) } },
    async (request, reply) => {
      const isRevoked = await revokeSession(
        app.db,
        sessionOf(request).userId,
        request.params.sessionId,
      );
      if (!isRevoked) throw new AppError('not_found');
      return reply.status(204).send();
    },
  );

  app.post(
    '/profile/sessions/revoke-others',
    { config: { access: 'user' } },
    async (request, reply) => {
      const session = sessionOf(request);
      await revokeUserSessions(app.db, session.userId, { exceptSessionId: session.sessionId });
      return reply.status(204).send();
    },
  );

  const passkeyParams = z.object({ passkeyId: z.uuid() });

  app.get(
    '/profile/passkeys',
    { config: { access: 'user' }, schema: { response: { 200: passkeyListSchema } } },
    async (request) => ({
      passkeys: await listPasskeys(authDepsOf(request), sessionOf(request).userId),
    }),
  );

  app.post(
    '/profile/passkeys/options',
    {
      config: reauthenticated,
      schema: {
        body: passkeyRegistrationOptionsBodySchema,
        response: { 200: passkeyRegistrationOptionsResponseSchema },
      },
    },
    async (request) => ({
      options: await startPasskeyRegistration(
        authDepsOf(request),
        sessionOf(request).userId,
        request.body.currentPassword,
      ),
    }),
  );

  app.post(
    '/profile/passkeys',
    {
      // Refused answers per address are counted in the service (failureLimits.passkey).
      config: { access: 'user' },
      schema: { body: passkeyRegistrationBodySchema, response: { 201: passkeyListSchema } },
    },
    async (request, reply) => {
      const passkeys = await finishPasskeyRegistration(
        authDepsOf(request),
        sessionOf(request).userId,
        request.body,
        clientOf(request),
      );
      return reply.status(201).send({ passkeys });
    },
  );

  app.patch(
    '/profile/passkeys/:passkeyId',
    {
      config: { access: 'user' },
      schema: {
        params: passkeyParams,
        body: passkeyRenameBodySchema,
        response: { 200: passkeyListSchema },
      },
    },
    async (request) => ({
      passkeys: await renameUserPasskey(
        authDepsOf(request),
        sessionOf(request).userId,
        request.params.passkeyId,
        request.body.name,
      ),
    }),
  );

  app.post(
    '/profile/passkeys/:passkeyId/remove',
    {
      config: reauthenticated,
      schema: {
        params: passkeyParams,
        body: passkeyRemoveBodySchema,
        response: { 200: passkeyListSchema },
      },
    },
    async (request) => ({
      passkeys: await removeUserPasskey(
        authDepsOf(request),
        sessionOf(request).userId,
        request.params.passkeyId,
        request.body.currentPassword,
        clientOf(request),
      ),
    }),
  );
};
