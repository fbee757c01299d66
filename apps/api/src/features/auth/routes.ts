import {
  forgotPasswordBodySchema,
  forgotPasswordResponseSchema,
  loginBodySchema,
  loginResponseSchema,
  meSchema,
  passwordResetEmailSentMessage,
  resetPasswordBodySchema,
  secondFactorBodySchema,
  sessionResponseSchema,
  tokenBodySchema,
} from '@coffer/contracts/auth';
import {
  passkeySecondFactorBodySchema,
  passkeySecondFactorOptionsBodySchema,
  passkeySignInBodySchema,
  passkeySignInOptionsResponseSchema,
} from '@coffer/contracts/passkeys';
import { signupBodySchema } from '@coffer/contracts/signup';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import { findUserById } from '../../customers/queries.ts';
import { sessionOf } from '../../platform/access.ts';
import { translateText } from '../../platform/i18n.ts';
import { languageOf, setLanguageCookie } from '../../platform/languages.ts';
import { rateLimits } from '../../platform/rate-limits.ts';
import { clearSessionCookie, revokeSession, setSessionCookie } from '../../platform/sessions.ts';
import {
  completeSecondFactorWithPasskey,
  passkeySignInOptions,
  secondFactorPasskeyOptions,
  signInWithPasskey,
} from './passkey-sign-in.ts';
import { recordSignInLanguage, toMe } from './queries.ts';
import {
  type AuthDeps,
  type Client,
  completeSecondFactor,
  type LoginResult,
  logIn,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  signUp,
  toLoginResponse,
  verifyEmail,
} from './service.ts';

const userResponseSchema = z.object({ user: meSchema });

export function clientOf(request: FastifyRequest): Client {
  return { userAgent: request.headers['user-agent'], ipAddress: request.ip };
}

export function authDepsOf(request: FastifyRequest): AuthDeps {
  const app = request.server;
  return {
    db: app.db,
    ledger: app.ledger,
    config: app.config,
    mailer: app.mailer,
    site: app.site,
    terms: app.terms,
    log: request.log,
  };
}

/**
 * A new session replaces whatever session the browser had (no session fixation). The
 * browser takes on the language the person chose, so a German signing in on a new device
 * reads German; someone who chose none keeps the browser's, which their emails then follow
 * (ADR 055).
 */
async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  result: LoginResult,
): Promise<void> {
  if (result.status !== 'signed_in') return;
  const { db, config } = request.server;
  if (request.session) await revokeSession(db, request.session.userId, request.session.sessionId);
  setSessionCookie(reply, config, result.sessionToken);
  if (result.user.language) setLanguageCookie(reply, config, result.user.language);
  await recordSignInLanguage(db, result.user.id, languageOf(request));
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/signup',
    {
      config: { access: 'public', rateLimit: rateLimits.signup },
      schema: { body: signupBodySchema, response: { 201: userResponseSchema } },
    },
    async (request, reply) => {
      const { user, sessionToken } = await signUp(authDepsOf(request), request.body, {
        ...clientOf(request),
        language: languageOf(request),
      });
      await startSession(request, reply, { status: 'signed_in', user, sessionToken });
      return reply.status(201).send({ user });
    },
  );

  app.post(
    '/auth/login',
    {
      // Failures per address are counted in the service (platform/attempt-counters.ts).
      config: { access: 'public' },
      schema: { body: loginBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => {
      const result = await logIn(authDepsOf(request), request.body, clientOf(request));
      await startSession(request, reply, result);
      return toLoginResponse(result);
    },
  );

  app.post(
    '/auth/login/second-factor',
    {
      config: { access: 'public' },
      schema: { body: secondFactorBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => {
      const result = await completeSecondFactor(
        authDepsOf(request),
        request.body,
        clientOf(request),
      );
      await startSession(request, reply, result);
      return toLoginResponse(result);
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      config: { access: 'public', rateLimit: rateLimits.passkeyOptions },
      schema: { response: { 200: passkeySignInOptionsResponseSchema } },
    },
    async (request) => ({ options: await passkeySignInOptions(authDepsOf(request)) }),
  );

  app.post(
    '/auth/passkey/sign-in',
    {
      // Refused answers per address are counted in the service (failureLimits.passkey).
      config: { access: 'public' },
      schema: { body: passkeySignInBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => {
      const result = await signInWithPasskey(
        authDepsOf(request),
        request.body.response,
        clientOf(request),
      );
      await startSession(request, reply, result);
      return toLoginResponse(result);
    },
  );

  app.post(
    '/auth/login/second-factor/passkey-options',
    {
      config: { access: 'public', rateLimit: rateLimits.passkeyOptions },
      schema: {
        body: passkeySecondFactorOptionsBodySchema,
        response: { 200: passkeySignInOptionsResponseSchema },
      },
    },
    async (request) => ({
      options: await secondFactorPasskeyOptions(authDepsOf(request), request.body.challengeToken),
    }),
  );

  app.post(
    '/auth/login/second-factor/passkey',
    {
      config: { access: 'public' },
      schema: { body: passkeySecondFactorBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => {
      const result = await completeSecondFactorWithPasskey(
        authDepsOf(request),
        request.body,
        clientOf(request),
      );
      await startSession(request, reply, result);
      return toLoginResponse(result);
    },
  );

  app.post('/auth/logout', { config: { access: 'public' } }, async (request, reply) => {
    if (request.session)
      await revokeSession(app.db, request.session.userId, request.session.sessionId);
    clearSessionCookie(reply, app.config);
    return reply.status(204).send();
  });

  app.get(
    '/auth/me',
    {
      config: {
        access: 'user',
        isOpenBeforePasswordChange: true,
        isOpenBeforeTermsAcceptance: true,
      },
      schema: { response: { 200: meSchema } },
    },
    async (request) => {
      const user = await findUserById(app.db, sessionOf(request).userId);
      if (!user) throw new Error('a live session always has its user');
      return toMe(user, app.config, app.terms);
    },
  );

  app.get(
    '/auth/session',
    { config: { access: 'public' }, schema: { response: { 200: sessionResponseSchema } } },
    async (request) => {
      const user = request.session ? await findUserById(app.db, request.session.userId) : null;
      return { user: user ? toMe(user, app.config, app.terms) : null };
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { access: 'public', rateLimit: rateLimits.emailLink },
      schema: { body: tokenBodySchema, response: { 200: userResponseSchema } },
    },
    async (request) => ({ user: await verifyEmail(authDepsOf(request), request.body.token) }),
  );

  app.post(
    '/auth/resend-verification',
    { config: { access: 'user', rateLimit: rateLimits.resendVerification } },
    async (request, reply) => {
      await resendVerification(authDepsOf(request), sessionOf(request).userId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      config: { access: 'public', rateLimit: rateLimits.forgotPassword },
      schema: { body: forgotPasswordBodySchema, response: { 202: forgotPasswordResponseSchema } },
    },
    async (request, reply) => {
      // Not awaited: the answer and its timing are the same whether or not the account exists.
      requestPasswordReset(authDepsOf(request), request.body.email).catch((error: unknown) =>
        request.log.error({ err: error }, 'could not send a password reset email'),
      );
      return reply
        .status(202)
        .send({ message: translateText(languageOf(request), passwordResetEmailSentMessage) });
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: { access: 'public', rateLimit: rateLimits.emailLink },
      schema: { body: resetPasswordBodySchema },
    },
    async (request, reply) => {
      await resetPassword(authDepsOf(request), request.body);
      return reply.status(204).send();
    },
  );
};
